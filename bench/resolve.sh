#!/usr/bin/env bash
# `envlock resolve` of a two-platform index on a docker-registry on loopback (index + platform
# manifest: two GETs), next to `skopeo inspect --raw` of the same reference (one GET) and
# `skopeo inspect` (index, manifest and config). Median wall time of RUNS runs.
# Usage: bench/resolve.sh [RUNS]   (ENVLOCK: the binary, default build/envlock)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
export REPO
ENVLOCK=${ENVLOCK:-$REPO/build/envlock}
RUNS=${1:-20}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-resolve.XXXXXX")
export WORK
. "$REPO/tests/e2e/lib.sh" # registry helpers; stops the registry on exit
set +u
trap 'e2e_cleanup; rm -rf "$WORK"' EXIT
reg_need
reg_start_plain >/dev/null
reg_make_image amd64 amd64 >/dev/null && reg_make_image arm64 arm64 >/dev/null
reg_push amd64 "$REG_PLAIN/base:v1" && reg_push arm64 "$REG_PLAIN/base-arm:v1"
reg_push_index "$REG_PLAIN/multi:v1" "$REG_PLAIN/base:v1" "$REG_PLAIN/base-arm:v1" >/dev/null

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
ours=$(time_ms "$ENVLOCK" resolve --insecure-registry "$REG_PLAIN" "$REG_PLAIN/multi:v1")
raw=$(time_ms skopeo inspect --tls-verify=false --raw "docker://$REG_PLAIN/multi:v1")
full=$(time_ms skopeo inspect --tls-verify=false "docker://$REG_PLAIN/multi:v1")
printf '%-48s median %8s ms\n' "envlock resolve (index -> linux/amd64)" "$ours"
printf '%-48s median %8s ms   (reference)\n' "skopeo inspect --raw (index only)" "$raw"
printf '%-48s median %8s ms   (reference)\n' "skopeo inspect (index, manifest, config)" "$full"
