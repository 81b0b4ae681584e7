# Git repositories for the end-to-end suites, made with the git program (fixed names and dates, so
# commit ids are the same on every run).
#   git_make_repo DIR      three commits on main; lightweight tag v1 (commit 1), annotated tag v2
#                          (commit 2), branch release (commit 2). Prints nothing.
#   git_commit_id DIR REV  the full commit id of REV
#   git_advance DIR BRANCH a new commit on BRANCH (which then moves)
git_env() {
  env GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
    GIT_AUTHOR_NAME=Test GIT_AUTHOR_EMAIL=test@example.invalid GIT_AUTHOR_DATE=2026-01-01T00:00:00Z \
    GIT_COMMITTER_NAME=Test GIT_COMMITTER_EMAIL=test@example.invalid \
    GIT_COMMITTER_DATE=2026-01-01T00:00:00Z "$@"
}

git_make_repo() {
  local dir=$1
  mkdir -p "$dir"
  git_env git -C "$dir" init -q -b main
  echo one > "$dir/README.md"
  git_env git -C "$dir" add README.md
  git_env git -C "$dir" commit -q -m one
  git_env git -C "$dir" tag v1
  echo two > "$dir/README.md"
  git_env git -C "$dir" commit -q -am two
  git_env git -C "$dir" tag -a v2 -m "version 2"
  git_env git -C "$dir" branch release
  echo three > "$dir/README.md"
  git_env git -C "$dir" commit -q -am three
}

git_commit_id() { git_env git -C "$1" rev-parse "$2^{commit}"; }

git_advance() {
  local dir=$1 branch=$2 current
  current=$(git_env git -C "$dir" rev-parse --abbrev-ref HEAD)
  git_env git -C "$dir" checkout -q "$branch"
  echo "advanced $(date +%s%N)" >> "$dir/README.md"
  git_env git -C "$dir" commit -q -am advance
  git_env git -C "$dir" checkout -q "$current"
}
