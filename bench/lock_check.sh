#!/usr/bin/env bash
# `envlock lock --check` with nothing changed (target <= 50 ms) next to references that read the
# same files: sha256sum of the three hashed files, and python3's tomllib parsing uv.lock.
# Usage: bench/lock_check.sh [RUNS]   (ENVLOCK: the binary, default build/envlock)
# It locks a project with Megatron-LM's uv.lock against a docker-registry on loopback first.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
export REPO
ENVLOCK=${ENVLOCK:-$REPO/build/envlock}
RUNS=${1:-20}
SHARED=${SHARED:-$(cd "$REPO/.." && pwd)/shared}
FIXTURE=$SHARED/fixtures/megatron-lm/core_v0.19.0
[ -f "$FIXTURE/uv.lock" ] || { echo "lock_check: Megatron-LM fixtures missing ($FIXTURE)" >&2; exit 2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-lock.XXXXXX")
export WORK
. "$REPO/tests/e2e/lib.sh" # registry and git helpers; stops the registry on exit
set +u
trap 'e2e_cleanup; rm -rf "$WORK"' EXIT

reg_start_plain >/dev/null
umoci init --layout "$WORK/img" >/dev/null && umoci new --image "$WORK/img:base" >/dev/null
umoci config --image "$WORK/img:base" --os linux --architecture amd64 >/dev/null
skopeo copy -q --dest-tls-verify=false "oci:$WORK/img:base" "docker://$REG_PLAIN/base:v1"
P=$WORK/proj
mkdir -p "$P"
git_make_repo "$P/megatron" >/dev/null
cp "$FIXTURE/uv.lock" "$FIXTURE/pyproject.toml" "$P/"
cat > "$P/envlock.yaml" <<YAML
envlock: 1
image: {name: bench, tag: v1}
base: {image: "$REG_PLAIN/base:v1"}
sources:
  megatron: {git: megatron, ref: v2}
python:
  uv: {version: 0.7.2}
YAML
(cd "$P" && "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" >/dev/null)

# time_ms CMD...: the median wall time of $RUNS runs, in milliseconds.
time_ms() {
  local i start end times=()
  for i in $(seq "$RUNS"); do
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}'
}
cd "$P"
check=$(time_ms "$ENVLOCK" lock --check)
sums=$(time_ms sha256sum envlock.yaml uv.lock pyproject.toml)
toml=$(time_ms python3 -c 'import tomllib; tomllib.load(open("uv.lock", "rb"))')
printf '%-44s median %8s ms   (target <= 50 ms)\n' "envlock lock --check (nothing changed)" "$check"
printf '%-44s median %8s ms   (reference)\n' "sha256sum envlock.yaml uv.lock pyproject.toml" "$sums"
printf '%-44s median %8s ms   (reference)\n' "python3 tomllib.load(uv.lock)" "$toml"
