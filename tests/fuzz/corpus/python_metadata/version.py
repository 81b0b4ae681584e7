__version__ = '2.6.0+cu126'
debug = False
cuda: Optional[str] = '12.6'
git_version = 'abc'
hip = None
