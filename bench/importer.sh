#!/usr/bin/env bash
# The Pyxis importer's figures, on an image of about SIZE_MIB MiB in 5 layers pushed to a
# docker-registry on loopback and pinned by a lock:
#  - the cached `envlock-importer get` of an image already imported and verified (the median of
#    20 runs; target <= 50 ms), next to what its verified stamp spares it: a full sha256 of the
#    .sqsh (`sha256sum`), which a check without the stamp would pay on every job, and next to the
#    same get through the full tool (`envlock importer get`), whose start alone loads libcurl,
#    libgit2 and libarchive;
#  - the first `get` (a native import into the cache) next to `envlock squashfs --lock` of the
#    same image.
# Prints the figures side by side; asserts nothing.
# Usage: ENVLOCK=build/envlock bash bench/importer.sh [SIZE_MIB]   (default 256)
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
export REPO
ENVLOCK=$(realpath "${ENVLOCK:-$REPO/build/envlock}")
SIZE_MIB=${1:-256}
for t in docker-registry skopeo openssl python3 gzip tar curl bc; do
  command -v "$t" >/dev/null || { echo "bench/importer.sh: $t is missing" >&2; exit 3; }
done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-importer.XXXXXX")
export WORK
. "$REPO/tests/e2e/lib.sh"
trap 'e2e_cleanup; rm -rf "$WORK"' EXIT
cd "$WORK" || exit 3
export TMPDIR=$WORK/tmp
mkdir -p "$TMPDIR" "$WORK/locks" "$WORK/cache"
. "$REPO/bench/layout.sh"
bench_layout "$WORK" "$SIZE_MIB"
img_registry_start || { echo "bench/importer.sh: docker-registry did not start" >&2; exit 3; }
D=$(img_push "$WORK/layout" bench "$IMG_REGISTRY/bench/image:v1" oci)
python3 - "$REPO/tests/data/verify/lock.json" "$WORK/locks/bench.lock.json" "$IMG_REGISTRY/bench/image" "$D" <<'PY'
import json, sys
template, out, repo, digest = sys.argv[1:5]
d = json.load(open(template))
d["base_image"] = {"digest": digest, "media_type": "application/vnd.oci.image.manifest.v1+json",
                   "name": repo, "platform": "linux/amd64", "platform_digest": digest,
                   "reference": repo + ":v1", "tag": "v1"}
d["enroot"] = {"source_date_epoch": 1700000000, "squash_options": "-comp lzo -noD -exit-on-error"}
json.dump(d, open(out, "w"), indent=2, sort_keys=True)
PY
cat >"$WORK/importer.yaml" <<Y
locks: [$WORK/locks]
cache: $WORK/cache
registry: {insecure: [$IMG_REGISTRY]}
Y
IMPORTER=$(dirname "$ENVLOCK")/envlock-importer
URI="docker://$IMG_REGISTRY#bench/image:v1"
get() { # JOB [COMMAND...]: a get as Pyxis runs it (default command: envlock-importer)
  local job=$1
  shift
  [ $# -gt 0 ] || set -- "$IMPORTER"
  env -i PATH="$PATH" TMPDIR="$TMPDIR" ENVLOCK_IMPORTER_CONFIG="$WORK/importer.yaml" SLURM_JOB_ID="$job" \
    SLURM_STEP_ID=0 SLURM_JOB_UID=0 PYXIS_RUNTIME_PATH=/run/pyxis PYXIS_VERSION=0.24.0 \
    "$@" get "$URI" </dev/null 2>/dev/null
}
now() { echo "$EPOCHREALTIME"; } # bash 5: no process is started to read the clock
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
sync

s=$(now)
"$ENVLOCK" squashfs --lock "$WORK/locks/bench.lock.json" --insecure-registry "$IMG_REGISTRY" \
  -o "$WORK/squashfs/bench.sqsh" >"$WORK/squashfs.log" 2>&1 || { echo "envlock squashfs failed:" >&2; cat "$WORK/squashfs.log" >&2; exit 3; }
squashfs_s=$(echo "$(now) - $s" | bc)
s=$(now)
sqsh=$(get 1) || { echo "the first get failed" >&2; exit 3; }
first_s=$(echo "$(now) - $s" | bc)
[ "$(sha256sum <"$sqsh")" = "$(sha256sum <"$WORK/squashfs/bench.sqsh")" ] ||
  echo "warning: the get's .sqsh differs from envlock squashfs's" >&2
cached_ms=$(for i in $(seq 20); do
  s=$EPOCHREALTIME; get $((100 + i)) >/dev/null; e=$EPOCHREALTIME; echo "($e - $s) * 1000" | bc; done | median)
full_ms=$(for i in $(seq 20); do
  s=$EPOCHREALTIME; get $((200 + i)) "$ENVLOCK" importer >/dev/null; e=$EPOCHREALTIME; echo "($e - $s) * 1000" | bc; done | median)
true_ms=$(for _ in $(seq 20); do
  s=$EPOCHREALTIME; env -i /bin/true </dev/null; e=$EPOCHREALTIME; echo "($e - $s) * 1000" | bc; done | median)
hash_ms=$(for _ in 1 2 3; do
  s=$EPOCHREALTIME; sha256sum "$sqsh" >/dev/null; e=$EPOCHREALTIME; echo "($e - $s) * 1000" | bc; done | median)
# CPU time, which a busy machine does not inflate as it does wall time (when perf is there).
cpu_ms=n/a
if command -v perf >/dev/null; then
  cpu_ms=$(env -i PATH="$PATH" ENVLOCK_IMPORTER_CONFIG="$WORK/importer.yaml" SLURM_JOB_ID=300 \
    perf stat -x, -e task-clock -r 20 "$IMPORTER" get "$URI" 2>&1 >/dev/null </dev/null |
    awk -F, '/task-clock/{printf "%.1f", $1}')
fi
size=$(($(stat -c %s "$sqsh") / 1048576))

printf 'image: %s MiB in 5 layers; .sqsh %s MiB\n' "$(du -sm "$WORK/layout" | cut -f1)" "$size"
printf 'cached get (median of 20): %.1f ms (target <= 50 ms); a full sha256 of the .sqsh instead: %.1f ms;\n' \
  "$cached_ms" "$hash_ms"
printf '  its CPU time (perf stat task-clock): %s ms; the same get through envlock importer: %.1f ms;\n' \
  "$cpu_ms" "$full_ms"
printf '  env -i /bin/true, started the same way: %.1f ms; load average now: %s\n' "$true_ms" \
  "$(cut -d' ' -f1 /proc/loadavg)"
printf 'first get (import into the cache): %.2f s; envlock squashfs --lock of the same image: %.2f s; ratio %.3f\n' \
  "$first_s" "$squashfs_s" "$(echo "$first_s / $squashfs_s" | bc -l)"
