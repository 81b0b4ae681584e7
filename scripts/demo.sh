#!/usr/bin/env bash
# The envlock demo (README command 1), on one machine and without the internet: installs the
# packages, builds envlock, then runs the real flow against real services on loopback:
#   1. starts docker-registry on a free port (storage in a temporary folder),
#   2. builds a tiny busybox base image with umoci and pushes it with skopeo,
#   3. makes a local git repository with a release tag (a stand-in for Megatron-LM),
#   4. copies examples/demo/ (envlock.yaml, pyproject.toml, uv.lock) and points it at both,
#   5. envlock lock, envlock lock --check, envlock render --with-verifier,
# and prints what came out. Everything it started is stopped on exit; the files are removed
# unless ENVLOCK_DEMO_KEEP=1. ENVLOCK=PATH runs that envlock instead of installing and building.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)

if [ -z "${ENVLOCK:-}" ]; then
  bash scripts/install-deps.sh
  bash scripts/build.sh
  ENVLOCK=$REPO/build/envlock
fi

. scripts/lib/demo_services.sh
DEMO=$(mktemp -d "${TMPDIR:-/tmp}/envlock-demo.XXXXXX")
# skopeo, umoci and git keep their state in the demo folder, not in the user's home.
export HOME=$DEMO/home REGISTRY_AUTH_FILE=$DEMO/auth.json XDG_RUNTIME_DIR=$DEMO/run
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
finish() {
  demo_stop_all
  if [ "${ENVLOCK_DEMO_KEEP:-0}" = 1 ]; then
    echo "demo: files kept in $DEMO"
  else
    rm -rf "$DEMO"
  fi
}
trap finish EXIT
say() { printf '\n== %s\n' "$*"; }
show() { printf '$ %s\n' "$*"; "$@"; }

say "a registry on loopback, a base image, a git repository"
demo_start_registry "$DEMO/registry"
demo_push_base "$DEMO/image" "$DEMO_REGISTRY/demo/base:v1"
echo "registry $DEMO_REGISTRY: demo/base:v1 pushed"
mkdir -p "$DEMO/project"
cp examples/demo/envlock.yaml examples/demo/pyproject.toml examples/demo/uv.lock "$DEMO/project/"
sed -i "s/127\.0\.0\.1:5000/$DEMO_REGISTRY/g" "$DEMO/project/envlock.yaml"
demo_git_repo "$DEMO/project/megatron-lm" core_v0.0.1
echo "git repository megatron-lm: tag core_v0.0.1"
cd "$DEMO/project"

say "lock: resolve every floating name once"
show "$ENVLOCK" lock --insecure-registry "$DEMO_REGISTRY"
python3 - <<'PY'
import json
lock = json.load(open("envlock.lock.json"))
base, meg, py = lock["base_image"], lock["sources"]["megatron"], lock["python"]
print(f"base_image  {base['reference']}\n         -> {base['name']}@{base['digest']}")
print(f"megatron    {meg['ref']} -> {meg['commit']}")
print(f"uv {py['uv']['version']}    sha256 {py['uv']['sha256']}")
print(f"uv.lock     sha256 {py['uv_lock']['sha256']}, {len(py['uv_lock']['packages'])} packages")
PY

say "lock --check: nothing has drifted"
show "$ENVLOCK" lock --check --insecure-registry "$DEMO_REGISTRY"

say "render --with-verifier: the Dockerfile, every reference pinned"
show "$ENVLOCK" render --with-verifier -o Dockerfile
cat Dockerfile
"$ENVLOCK" render --with-verifier -o Dockerfile.again
cmp Dockerfile Dockerfile.again
echo "(rendered twice: identical bytes, sha256 $(sha256sum Dockerfile | cut -d' ' -f1))"

say "done"
