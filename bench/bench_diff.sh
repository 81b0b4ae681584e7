#!/usr/bin/env bash
# bench_diff.sh: wall time of the whole `envlock diff` command on the two Megatron-LM locks
# (core_v0.18.2 -> core_v0.19.0), next to `diff -u` of the same two JSON files. Median of N runs.
# Usage: bench/bench_diff.sh [ENVLOCK] [N]
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
ENVLOCK=${1:-$REPO/build/envlock}
N=${2:-30}
OLD=$REPO/tests/data/diff/old.lock.json
NEW=$REPO/tests/data/diff/new.lock.json

median_ms() { # CMD...: runs CMD N times, prints the median wall time in ms
  python3 - "$N" "$@" <<'PY'
import subprocess, sys, time
n, cmd = int(sys.argv[1]), sys.argv[2:]
times = []
for _ in range(n):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append((time.perf_counter() - t) * 1000)
times.sort()
print(f"{times[len(times) // 2]:.2f}")
PY
}

echo "bench_diff.sh: $N runs each, median wall time"
for fmt in text markdown json; do
  echo "  envlock diff --format $fmt  $(median_ms "$ENVLOCK" diff "$OLD" "$NEW" --format "$fmt") ms"
done
echo "  diff -u (reference)         $(median_ms diff -u "$OLD" "$NEW") ms"
