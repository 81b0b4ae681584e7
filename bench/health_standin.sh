#!/usr/bin/env bash
# The health reading of N GPUs read side by side, on the NVML stand-in (tests/standin/nvml/) with
# every GPU taking 70 ms in nvmlDeviceValidateInforom, as an H100 does, beside the reference of
# reading them one after the other (N x 70 ms). The other answers are the HGX test node's
# (tests/data/node/health/hgx/), its GPUs repeated up to N. Asserts nothing.
# Usage: bench/health_standin.sh [GPUS...] (default: 1 8)   BUILD: the build folder (build/)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$REPO/build}
BENCH=$BUILD/bench/bench_health
STANDIN=$BUILD/tests/standin/nvml/libnvidia-ml.so.1
DATA=$REPO/tests/data/node/health/hgx
DELAY_MS=70
[ -x "$BENCH" ] && [ -f "$STANDIN" ] || {
  echo "health_standin: build bench_health and envlock_standin_nvml first ($BUILD)" >&2
  exit 2
}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/envlock-bench-health.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ $# -gt 0 ] || set -- 1 8
for n in "$@"; do
  python3 - "$DATA/nvml.json" "$n" "$DELAY_MS" >"$WORK/nvml-$n.json" <<'PY'
import json, sys
scenario = json.load(open(sys.argv[1]))
gpus, n = scenario["gpus"], int(sys.argv[2])
scenario["gpus"] = [gpus[i % len(gpus)] for i in range(n)]
scenario["delay_ms"] = {"nvmlDeviceValidateInforom": int(sys.argv[3])}
json.dump(scenario, sys.stdout)
PY
  echo "== $n stand-in GPUs, ${DELAY_MS} ms each in nvmlDeviceValidateInforom" \
    "(one after the other: at least $((n * DELAY_MS)) ms)"
  ENVLOCK_NODE_ROOT=$DATA/root ENVLOCK_NVML=$STANDIN ENVLOCK_NVML_SCENARIO=$WORK/nvml-$n.json \
    "$BENCH" 10
done
