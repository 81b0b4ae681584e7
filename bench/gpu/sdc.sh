#!/usr/bin/env bash
# The GPU machine's run for the SDC check (issue 35), one batched call of about six minutes:
#   1. the default check beside the GEMM check (`--check gemm,sdc`, a 45 s budget) and the same
#      under --quick: the time per GPU, the sustained BF16 rate as a share of the GEMM check's,
#      the temperatures and clock-event reasons seen;
#   2. determinism: 20 runs of the chain (`--check sdc --sdc-steps 1024`): did every digest repeat?
#   3. 20 runs with one bit flipped (the test-only --inject-bitflip 0:STEP, STEP from 316 to 1000):
#      is each caught, at the first digest at or after STEP, with every digest before it equal?
# Usage: bench/gpu/sdc.sh ENVLOCK_VERIFY OUTDIR
set -u
verify=$(realpath "$1")
out=$2
source "$(dirname "$0")/setup.sh"
unset VIRTUAL_ENV UV_PROJECT_ENVIRONMENT
work=$(mktemp -d)
nvidia-smi --query-gpu=index,name,driver_version,serial --format=csv,noheader
python3 "$here/make_machine_lock.py" "$repo/tests/data/verify/lock.json" "$gpus" >"$work/lock.json"
run() { # NAME ARGS...: one envlock-verify run, its report in $work/NAME.json, its wall time printed
  local name=$1 t0 rc
  shift
  t0=$(now)
  timeout 150 "$verify" --lock "$work/lock.json" --format json -o "$work/$name.json" "$@" >/dev/null 2>"$work/$name.err"
  rc=$?
  echo "$name $(awk "BEGIN {print $(now) - $t0}") $rc" >>"$work/times"
}
run default --check gemm,sdc
run quick --quick --check gemm,sdc
for i in $(seq 1 20); do run "repeat-$i" --check sdc --sdc-steps 1024; done
for i in $(seq 1 20); do run "flip-$i" --check sdc --sdc-steps 1024 --inject-bitflip "0:$((280 + 36 * i))"; done
cp "$work/default.json" "$work/quick.json" "$out/" 2>/dev/null
python3 "$here/sdc_summary.py" "$work" | tee "$out/sdc-summary.txt"
