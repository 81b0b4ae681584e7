# The SDC check (--check sdc) on the GPU stand-ins (tests/standin/gpu): 8 stand-in GPUs run the
# chain (the stand-ins' small shape) and agree; a cuBLASLt stand-in that flips one bit of GPU 3's
# 10th chain product (ENVLOCK_STANDIN_SDC_FLIP) is caught and GPU 3 alone is named; two GPUs
# that disagree are a tie that names nobody; the test-only --inject-bitflip is caught the same way.
. "$REPO/tests/e2e/lib.sh"
need_tools python3
V=$ENVLOCK_VERIFY
[ -x "$V" ] || skip "no envlock-verify binary at $V"
S=${ENVLOCK_STANDIN:-$(dirname "$V")/tests/standin}
[ -f "$S/driver/libcuda.so.1" ] || skip "no GPU stand-ins at $S (build the envlock_standin_* targets)"
LOCK=$REPO/tests/data/verify/lock.json
printf 'gpus 8\n' >eight
printf 'gpus 2\n' >two

# sdc SCENARIO ARGS...: the SDC check on the stand-ins, the JSON report in out.json.
sdc() {
  local scenario=$1
  shift
  rm -f out.json
  run_cmd v env ENVLOCK_STANDIN_GPU="$scenario" LD_LIBRARY_PATH="$S/driver" "$V" --lock "$LOCK" \
    --site-packages "$S/site-packages" --check sdc --sdc-shape small --sdc-steps 32 \
    --format json -o out.json "$@"
}
# py EXPRESSION: evaluated with `r` the report and `c(id)` a check.
py() {
  python3 -c "import json; r = json.load(open('out.json'))
c = lambda i: next(x for x in r['checks'] if x['id'] == i)
print($1)"
}

sdc eight
check_eq "$v_rc" 0 "8 agreeing stand-in GPUs: exit 0"
check_eq "$(py "c('sdc.node')['outcome']")" pass "the node's GPUs give the same digests"
check_eq "$(py "len({json.dumps(c(f'gpu.{i}.sdc')['details']['digests']) for i in range(8)})")" 1 \
  "every GPU's digests are the same"
check_eq "$(py "[d['step'] for d in c('gpu.0.sdc')['details']['digests']]")" \
  "[4, 8, 12, 16, 20, 24, 28, 32]" "a digest every 4 steps, the last at step 32"
check_eq "$(py "c('gpu.0.sdc')['details']['algo']['reduction_scheme'], c('gpu.0.sdc')['details']['repeated']")" \
  "0 True" "the algorithm without a split-K reduction, and the chain repeated"
check_eq "$(py "c('gpu.0.clocks')['outcome']")" skip "no NVML here: the clocks are not sampled"

ENVLOCK_STANDIN_SDC_FLIP=3:10 sdc eight
check_eq "$v_rc" 1 "one flipped bit: exit 1"
check_eq "$(py "[(f['gpu'], f['finding'], f['step']) for f in c('sdc.node')['details']['findings']]")" \
  "[(3, 'sdc.gpu.minority', 12)]" "GPU 3 alone is named, at the first digest after the flip"
check_contains "$(py "c('sdc.node')['reason']")" "GPU 3 (GPU-" "the reason names GPU 3 and its UUID"
check_contains "$(py "c('sdc.node')['reason']")" "differs from 7 of 8 GPUs at step 12" \
  "the reason says how many GPUs agree"
check_eq "$(py "[c(f'gpu.{i}.sdc')['outcome'] for i in range(8)].count('pass')")" 8 \
  "each GPU's own chain check passes: the comparison names the fault"

ENVLOCK_STANDIN_SDC_FLIP=1:10 sdc two
check_eq "$(py "c('sdc.node')['outcome'], c('sdc.node')['details']['findings']")" "fail []" \
  "two GPUs that disagree: no GPU named"
check_contains "$(py "c('sdc.node')['reason']")" "split 1 against 1 at step 12; no majority, no GPU named" \
  "a tie is reported as a tie"

sdc eight --inject-bitflip 6:5
check_eq "$(py "[(f['gpu'], f['step']) for f in c('sdc.node')['details']['findings']]")" "[(6, 8)]" \
  "--inject-bitflip 6:5 is caught at step 8, on GPU 6"
check_eq "$(py "c('gpu.6.sdc')['details']['injected_bitflip_step']")" 5 "the report says a bit was injected"

printf 'gpus 1\n' >one
sdc one
check_eq "$(py "c('sdc.node')['outcome']")" skip "one GPU: nothing to compare within the node"

run_cmd bad "$V" --lock "$LOCK" --check sdc --inject-bitflip three
check_eq "$bad_rc" 2 "--inject-bitflip without GPU:STEP is a usage error"
check_contains "$bad_err" "--inject-bitflip: 'three' is not GPU:STEP" "the error names the option"
finish
