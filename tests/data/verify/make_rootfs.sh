#!/usr/bin/env bash
# Builds the unpacked-image fixture the verifier tests check offline (--root) and through
# --site-packages: a uv virtual environment over a system site-packages, torch/version.py, a
# stand-in libnccl.so.2 that holds only NCCL's version string, CUDA's version.json, cuDNN's
# versioned file name, the Megatron-LM commit file and an Enroot /etc/rc with envlock's labels.
# Everything matches tests/data/verify/lock.json.
# Usage: make_rootfs.sh DIR
set -euo pipefail
root=$1
here=$(cd "$(dirname "$0")" && pwd)
lock=$here/lock.json
commit=0123456789abcdef0123456789abcdef01234567
venv_site=$root/opt/venv/lib/python3.12/site-packages
system_site=$root/usr/local/lib/python3.12/dist-packages
libdir=$root/usr/lib/x86_64-linux-gnu

mkdir -p "$root/etc/envlock" "$venv_site" "$system_site" "$libdir" "$root/usr/local/cuda" \
  "$root/opt/megatron-lm"
cp "$lock" "$root/etc/envlock/lock.json"
printf 'PATH=/opt/venv/bin:/usr/local/bin:/usr/bin:/bin\nUV_PROJECT_ENVIRONMENT=/opt/venv\n' \
  >"$root/etc/environment"
printf 'home = /usr/bin\ninclude-system-site-packages = true\nversion = 3.12.3\n' \
  >"$root/opt/venv/pyvenv.cfg"

# dist SITE NAME VERSION FILE=CONTENT...: a dist-info folder with METADATA and a RECORD whose
# sha256 entries are real (urlsafe base64, no padding).
dist() {
  local site=$1 name=$2 version=$3; shift 3
  local info="$site/${name//-/_}-$version.dist-info"
  mkdir -p "$info"
  printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n\nA test distribution.\n' "$name" \
    "$version" >"$info/METADATA"
  printf 'uv\n' >"$info/INSTALLER"
  local pair
  for pair in "$@"; do
    mkdir -p "$(dirname "$site/${pair%%=*}")"
    printf '%s\n' "${pair#*=}" >"$site/${pair%%=*}"
  done
  python3 - "$site" "$info" "$@" <<'PY'
import base64, hashlib, os, sys
site, info, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
rel = lambda p: os.path.relpath(p, site)
lines = []
for path in sorted([p.split("=", 1)[0] for p in pairs] + [rel(os.path.join(info, "METADATA")),
                                                          rel(os.path.join(info, "INSTALLER"))]):
    data = open(os.path.join(site, path), "rb").read()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    lines.append(f"{path},sha256={digest},{len(data)}")
lines.append(f"{rel(os.path.join(info, 'RECORD'))},,")
open(os.path.join(info, "RECORD"), "w").write("\n".join(lines) + "\n")
PY
}

dist "$venv_site" numpy 2.1.0 "numpy/__init__.py=__version__ = '2.1.0'" \
  "numpy/core/multiarray.py=def empty(shape): return [0] * shape"
dist "$venv_site" six 1.17.0 "six.py=PY3 = True"
dist "$venv_site" typing-extensions 4.12.2 "typing_extensions.py=Any = object"
dist "$venv_site" megatron-core 0.19.0 "megatron/core/__init__.py=__version__ = '0.19.0'"
printf '{"url": "https://git.example.invalid/NVIDIA/Megatron-LM.git", "vcs_info": {"vcs": "git", "commit_id": "%s"}}\n' \
  "$commit" >"$venv_site/megatron_core-0.19.0.dist-info/direct_url.json"

dist "$system_site" torch 2.13.0a0+8145d630e8 "torch/__init__.py=from .version import __version__"
cat >"$system_site/torch/version.py" <<'PY'
from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'rocm', 'xpu']
__version__ = '2.13.0a0+8145d630e8'
debug = False
cuda: Optional[str] = '13.3'
git_version = '8145d630e8aa11e0cd0f4ef2b5b5a6e7c7d9f001'
hip: Optional[str] = None
rocm: Optional[str] = None
xpu: Optional[str] = None
PY

printf '\177ELF stand-in library\0\0NCCL version 2.30.7+cuda13.3\0NCCL version 2.30.7 compiled with CUDA 13.3\0' \
  >"$libdir/libnccl.so.2.30.7"
ln -sf libnccl.so.2.30.7 "$libdir/libnccl.so.2"
printf '\177ELF stand-in library\0' >"$libdir/libcudnn.so.9.14.0"
ln -sf libcudnn.so.9.14.0 "$libdir/libcudnn.so.9"
cat >"$root/usr/local/cuda/version.json" <<'JSON'
{
  "cuda": {"name": "CUDA SDK", "version": "13.3.0"},
  "cuda_cudart": {"name": "CUDA Runtime (cudart)", "version": "13.3.41"}
}
JSON
printf '%s\n' "$commit" >"$root/opt/megatron-lm/.envlock-commit"

lock_sha=$(sha256sum "$lock" | cut -d' ' -f1)
cat >"$root/etc/rc" <<RC
# io.envlock.lock.sha256 $lock_sha
# org.opencontainers.image.base.digest sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
# org.opencontainers.image.base.name registry.example.invalid/nvidia/pytorch:26.06-py3
# org.opencontainers.image.revision $commit
# org.opencontainers.image.title shan-training
# org.opencontainers.image.version mc0.19.0-cu13.3

mkdir -p "/workspace" 2> /dev/null
cd "/workspace" && unset OLDPWD || exit 1

if [ -s /etc/rc.local ]; then
    . /etc/rc.local
fi

if [ \$# -gt 0 ]; then
    exec "\$@"
else
    exec '/bin/bash'
fi
RC
