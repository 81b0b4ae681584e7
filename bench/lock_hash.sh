#!/usr/bin/env bash
# Hashing a large sample-data prefix during `envlock lock` (issue 19: target >= 1.0 of openssl)
# against sha256sum and `openssl dgst -sha256` of the same two files. The files are written once;
# each tool then reads them from the page cache (a warm-up read first), so the figures compare
# hashing, not the disk.
# Usage: bench/lock_hash.sh [GIB] [RUNS]   (default 10 GiB, 3 runs; ENVLOCK: the binary, default
# build/envlock). It locks a project against a docker-registry on loopback; the figure for envlock
# is the wall time of `lock` minus that of the same lock without `training:`.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
export REPO
ENVLOCK=${ENVLOCK:-$REPO/build/envlock}
GIB=${1:-10}
RUNS=${2:-3}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-hash.XXXXXX")
export WORK
. "$REPO/tests/e2e/lib.sh" # registry and project helpers; stops the registry on exit
set +u
trap 'e2e_cleanup; rm -rf "$WORK"' EXIT

P=$WORK/proj
proj_make "$P" >/dev/null || { echo "lock_hash: the project could not be made" >&2; exit 3; }
mkdir -p "$P/data"
# A prefix as Megatron-LM writes it: a large .bin of tokens and a small .idx (random bytes here:
# what is hashed does not change the speed).
head -c $((GIB << 30)) /dev/urandom >"$P/data/sample_text_document.bin"
head -c $((12 << 20)) /dev/urandom >"$P/data/sample_text_document.idx"
FILES=("$P/data/sample_text_document.bin" "$P/data/sample_text_document.idx")
BYTES=$(cat "${FILES[@]}" | wc -c)
proj_manifest "$P" "{}"
cp "$P/envlock.yaml" "$P/plain.yaml"
printf 'training:\n  data: data/sample_text_document\n' >>"$P/envlock.yaml"
cat "${FILES[@]}" >/dev/null # into the page cache

# median_s CMD...: the median wall time of $RUNS runs, in seconds.
median_s() {
  local i start end times=()
  for i in $(seq "$RUNS"); do
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]/1000000}'
}
cd "$P"
with=$(median_s "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -o with.lock.json)
without=$(median_s "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -f plain.yaml -o plain.lock.json)
check=$(median_s "$ENVLOCK" lock --check -o with.lock.json)
sums=$(median_s sha256sum "${FILES[@]}")
ossl=$(median_s openssl dgst -sha256 "${FILES[@]}")
python3 - "$BYTES" "$with" "$without" "$check" "$sums" "$ossl" "$(nproc)" <<'PY'
import sys
size, w, wo, chk, sums, ossl, cpus = int(sys.argv[1]), *map(float, sys.argv[2:7]), sys.argv[7]
lock = max(w - wo, 1e-9)
gib = size / 2**30
def row(name, s, note=""):
    print("%-46s %8.3f s  %7.0f MiB/s  %s" % (name, s, size / 2**20 / s, note))
print("sample data: %.2f GiB (PREFIX.bin + PREFIX.idx), page cache warm, %s CPUs" % (gib, cpus))
row("envlock lock: hashing (lock - lock w/o training)", lock, "%.2f of openssl (target >= 1.0)" % (ossl / lock))
row("envlock lock --check (hashes both again)", chk, "%.2f of openssl" % (ossl / chk))
row("sha256sum", sums, "(reference)")
row("openssl dgst -sha256", ossl, "(reference)")
print("envlock lock with training: %.3f s, without: %.3f s" % (w, wo))
PY
