#!/usr/bin/env bash
# The envlock demo (README command 1), on one machine and without the internet: installs the
# packages, builds the two executables, then runs the whole flow against real services on
# loopback, the README's quick tour line by line:
#   a registry (docker-registry) with a tiny busybox base image, a local git repository with a
#   release tag (a stand-in for Megatron-LM), examples/demo/ pointed at both; then lock, lock
#   --check, render, build with buildah and push, provenance and its signature, squashfs, squashfs
#   verify, its SBOM and the attestations pushed beside it, envlock-verify --root on the unpacked image, a diff against the lock of the next
#   release, and the handover record.
# Everything it started is stopped on exit; the files are removed unless ENVLOCK_DEMO_KEEP=1.
# ENVLOCK=PATH runs that envlock (and the envlock-verify beside it) instead of installing and
# building.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
start=$(date +%s)

if [ -z "${ENVLOCK:-}" ]; then
  echo "demo: installs the packages (apt-get), builds envlock, envlock-verify and envlock-importer"
  echo "      into build/ (the first build takes 10 to 25 minutes on 2 cores, longer on a busy"
  echo "      machine, and cmake may print nothing for two minutes at a time; later builds take"
  echo "      seconds with ccache), then runs the whole flow on loopback, offline, in about a minute."
  bash scripts/install-deps.sh --demo
  bash scripts/build.sh envlock envlock-verify envlock-importer
  ENVLOCK=$REPO/build/envlock
fi
BIN=$(cd "$(dirname "$ENVLOCK")" && pwd)
export PATH=$BIN:$PATH

. scripts/lib/demo_services.sh
DEMO=$(mktemp -d "${TMPDIR:-/tmp}/envlock-demo.XXXXXX")
# skopeo, umoci and git keep their state in the demo folder, not in the user's home.
export HOME=$DEMO/home REGISTRY_AUTH_FILE=$DEMO/auth.json XDG_RUNTIME_DIR=$DEMO/run
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
printf '{"auths": {}}\n' >"$REGISTRY_AUTH_FILE" # buildah refuses an auth file that does not exist
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
cp examples/demo/envlock.yaml examples/demo/pyproject.toml examples/demo/uv.lock \
  examples/demo/Dockerfile.mustache "$DEMO/project/"
sed -i "s/127\.0\.0\.1:5000/$DEMO_REGISTRY/g" "$DEMO/project/envlock.yaml"
demo_git_repo "$DEMO/project/megatron-lm" core_v0.0.1
echo "git repository megatron-lm: tag core_v0.0.1"
cd "$DEMO/project"

say "lock: resolve every floating name once"
show envlock lock
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
show envlock lock --check

say "render: the Dockerfile, every reference pinned (twice: the same bytes)"
show envlock render -o Dockerfile
sed -n '/^FROM/p' Dockerfile
envlock render -o Dockerfile.again
cmp Dockerfile Dockerfile.again
echo "(rendered twice: identical bytes, sha256 $(sha256sum Dockerfile | cut -d' ' -f1))"

say "build: buildah builds the image (the demo's offline template) and pushes it"
show envlock build --template Dockerfile.mustache --with-verifier --push -q
python3 -c 'import json; r = json.load(open("build-result.json")); print("image", r["image"]["reference"])'

say "provenance: the SLSA statement of the build, signed"
show envlock provenance -o provenance.json
show envlock keygen
show envlock provenance sign provenance.json -o provenance.dsse.json

say "squashfs: the Enroot image of the built image, and its check"
show envlock squashfs -o image.sqsh
show envlock squashfs verify image.sqsh

say "sbom and attest: what the image has installed, attached to it in the registry"
show envlock sbom --sqsh image.sqsh -o sbom.cdx.json
show envlock attest push provenance.dsse.json sbom.cdx.json

say "envlock-verify --root: the image checked offline against its lock"
unsquashfs -q -no-progress -d rootfs image.sqsh >/dev/null
show envlock-verify --root rootfs --check image,megatron -o report.json

say "diff: what the next release would change"
demo_git_release megatron-lm core_v0.0.2
cp envlock.yaml envlock.yaml.v1
sed -i 's/ref: core_v0.0.1/ref: core_v0.0.2/' envlock.yaml
envlock lock -o next.lock.json >/dev/null
mv envlock.yaml.v1 envlock.yaml
show envlock diff envlock.lock.json next.lock.json || [ $? -eq 1 ] # 1: the locks differ

say "handover: the environment handover record"
mkdir -p reports && cp report.json reports/
show envlock handover
sed -n 1,12p handover.md

say "done in $(($(date +%s) - start)) s"
echo "executables: $BIN/envlock, $BIN/envlock-verify, $BIN/envlock-importer (add $BIN to PATH, or: cmake --install build --prefix DIR)"
if [ "${ENVLOCK_DEMO_KEEP:-0}" = 1 ]; then
  echo "outputs: $DEMO/project (lock, Dockerfile, build-result.json, provenance, image.sqsh, sbom.cdx.json, report, handover.md)"
fi
