# envlock-verify's GPU checks against stand-ins for libcuda.so.1, NCCL and cuBLASLt that answer
# from a scenario (tests/standin/gpu/standin.hpp): the order of a run (cuBLASLt and NCCL set up
# beside the known answers, every timed measurement after the set-up), the link check (pairs,
# both ways, peer access enabled and disabled again, a pair far below the others, the lock's
# minimum, pairs without peer access, a copy that fails), --quick, and each check's own time. The
# stand-ins are no GPU: they prove the verifier's logic, not a machine's speed.
. "$REPO/tests/e2e/lib.sh"
need_tools python3
V=$ENVLOCK_VERIFY
[ -x "$V" ] || skip "no envlock-verify binary at $V"
S=${ENVLOCK_STANDIN:-$(dirname "$V")/tests/standin}
[ -f "$S/driver/libcuda.so.1" ] || skip "no GPU stand-ins at $S (build the envlock_standin_* targets)"
SITE=$S/site-packages

# Locks expecting 1, 2 and 4 GPUs of NVIDIA H200 (lockN.json), and 4 with link minimums.
python3 - "$REPO/tests/data/verify/lock.json" <<'PY'
import json, sys
for name, count, links in [("lock1", 1, None), ("lock2", 2, None), ("lock4", 4, None),
                           ("lock4-min", 4, {"NVIDIA H200": {"peer_gbps": 390,
                                                             "host_to_device_gbps": 50}})]:
    lock = json.load(open(sys.argv[1]))
    lock["expect"]["gpus"] = {"count": count, "model": "NVIDIA H200"}
    if links:
        lock["expect"]["links"] = links
    json.dump(lock, open(name + ".json", "w"), indent=2, sort_keys=True)
PY
# verify SCENARIO ARGS...: envlock-verify on the stand-ins; the JSON report in out.json, flattened
# once into out.tsv (ID, KEY, VALUE) for field().
verify() {
  local scenario=$1
  shift
  rm -f out.json out.tsv calls.log
  run_cmd v env ENVLOCK_STANDIN_GPU="$scenario" LD_LIBRARY_PATH="$S/driver" \
    "$V" --site-packages "$SITE" --format json -o out.json "$@"
  python3 - out.json >out.tsv <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
rows = [("run", "ids", " ".join(c["id"] for c in report["checks"]))]
for check in report["checks"]:
    cid = check["id"]
    for key in ("outcome", "reason", "found", "expected"):
        rows.append((cid, key, check[key]))
    rows.append((cid, "seconds", "%.3f" % report["run"]["check_seconds"][cid]))
    rows.append((cid, "figures", str(len(check["figures"]))))
    for figure in check["figures"]:
        rows.append((cid, "figure:" + figure["name"], "%.1f" % figure["value"]))
    for key, value in check["details"].get("setup", {}).items():
        rows.append((cid, "setup." + key, "%.3f" % value))
for row in rows:
    print("\t".join(row))
PY
}
# field ID KEY: a check's KEY from out.tsv ("outcome", "reason", "found", "expected", "seconds",
# "figures" (their count), "figure:NAME", "setup.NAME"); "(none)" when absent.
field() {
  awk -F'\t' -v id="$1" -v key="$2" '$1 == id && $2 == key {print $3; found = 1}
    END {if (!found) print "(none)"}' out.tsv
}
ids() { field run ids; }
# The time (ns) of the first or last log line matching a pattern; empty when none.
first_at() { grep -E "$1" calls.log | head -1 | cut -d' ' -f1; }
last_at() { grep -E "$1" calls.log | tail -1 | cut -d' ' -f1; }

GPU_GROUPS=gpu,smoke,gemm,links,allreduce

# ---- two GPUs, the whole GPU part: set-up beside the known answers, measurements after it
cat >two.scenario <<EOF2
gpus 2
nccl_init_ms 400
blas_create_ms 100
log $WORK/calls.log
EOF2
verify two.scenario --lock lock2.json --check $GPU_GROUPS
check_eq "$(ids)" "gpu.count gpu.model gpu.visible gpu.0.smoke gpu.0.bandwidth gpu.0.gemm_bf16 gpu.1.smoke gpu.1.bandwidth gpu.1.gemm_bf16 links.peer links.host_to_device links.device_to_host nccl.allreduce nccl.busbw" "the GPU checks in report order"
check_eq "$(field gpu.count outcome)" pass "two stand-in GPUs counted"
built_in=yes
[ "$(field gpu.0.smoke outcome)" = skip ] && built_in=no
if [ "$built_in" = yes ]; then
  check_eq "$(field gpu.0.smoke outcome)" pass "known answer on GPU 0"
  check_eq "$(field gpu.1.bandwidth outcome)" pass "memory bandwidth on GPU 1"
  check_eq "$(field gpu.1.bandwidth found)" "4.000 TB/s" "the stand-in's HBM speed comes back"
  # The full GEMM: the small product checked, the large one has no algorithm in the stand-in.
  check_eq "$(field gpu.0.gemm_bf16 reason)" "no cuBLASLt algorithm for a 8192x8192x8192 BF16 product" "the large product's failure named"
  check_eq "$(awk "BEGIN{print ($(field gpu.0.gemm_bf16 setup.handle_seconds) >= 0.1)}")" 1 "the GEMM's handle set-up (100 ms here) is in its details"
  # Overlap: the smoke kernels ran while NCCL set up.
  check_eq "$([ "$(first_at 'launch envlock_known_answer')" -lt "$(first_at 'ncclCommInitAll end')" ] && echo yes)" yes "the known answers run beside NCCL's set-up"
else
  check_contains "$(field gpu.0.smoke reason)" "smoke kernels not built in" "no nvcc: smoke skipped with the reason"
fi
check_contains "$(cat calls.log)" "cublasLtCreate begin gpu 0" "a cuBLASLt handle for GPU 0"
check_contains "$(cat calls.log)" "cublasLtCreate begin gpu 1" "a cuBLASLt handle for GPU 1"
check_not_contains "$(cat calls.log)" "cublasLtCreate without a current context" "every handle is made with the GPU's context current"
setup_end=$(last_at 'ncclCommInitAll end|cublasLtCreate end')
first_timed=$(first_at 'cuEventRecord')
check_eq "$([ -n "$first_timed" ] && [ "$first_timed" -gt "$setup_end" ] && echo yes)" yes "no timed measurement before the set-up is done"
check_eq "$(grep -c 'ncclCommInitAll begin' calls.log)" 1 "NCCL set up once"
check_eq "$([ "$(first_at 'ncclAllReduce 1048576')" -lt "$first_timed" ] && echo yes)" yes "the all-reduce's known answer runs in the set-up, before any timing"
check_eq "$([ "$(first_at ncclGetVersion)" -lt "$(first_at cublasLtGetVersion)" ] && echo yes)" yes "NCCL loads before cuBLASLt (its set-up is the longest)"
# Links: both ways, peer access enabled for the pair and disabled after.
check_eq "$(field links.peer outcome)" pass "links.peer passes"
check_eq "$(field links.peer figure:peer_0_1) $(field links.peer figure:peer_1_0)" "380.0 380.0" "peer copies at the stand-in's 380 GB/s, both ways"
check_eq "$(field links.peer found)" "slowest 380.0 GB/s (GPU 0 -> GPU 1)" "links.peer found"
check_eq "$(grep -c 'peer enable' calls.log) $(grep -c 'peer disable' calls.log)" "2 2" "peer access enabled both ways, then disabled"
check_eq "$(field links.host_to_device figure:host_to_device_1) $(field links.device_to_host figure:device_to_host_0)" "55.0 53.0" "host links measured per GPU"
check_eq "$(field links.host_to_device outcome)" pass "host to device passes"
# The all-reduce uses the communicators made in the set-up.
check_eq "$(field nccl.allreduce found)" "3 on every GPU" "all-reduce known answer"
check_eq "$(field nccl.busbw found)" "330.0 GB/s at 1GiB" "bus bandwidth from the stand-in's link"
check_eq "$(awk "BEGIN{print ($(field nccl.allreduce setup.comm_init_seconds) >= 0.4)}")" 1 "NCCL's set-up (400 ms here) in the all-reduce's details"
check_eq "$(awk "BEGIN{print ($(field nccl.allreduce seconds) >= 0.4)}")" 1 "the all-reduce's time includes its set-up"

# ---- four GPUs: a pair far below the others is named; the lock's minimum
cat >four.scenario <<EOF2
gpus 4
peer 2 3 150
log $WORK/calls.log
EOF2
verify four.scenario --lock lock4.json --check links
check_eq "$v_rc" 1 "a slow pair fails the run"
check_eq "$(field links.peer outcome)" fail "links.peer fails"
check_eq "$(field links.peer reason)" "far below the others: GPU 2 -> GPU 3 150.0 GB/s (the others' median 380.0 GB/s)" "the slow pair named"
check_eq "$(field links.peer figures)" 12 "every pair, both ways"
check_eq "$(grep -c 'peer enable' calls.log) $(grep -c 'peer disable' calls.log)" "12 12" "each pair's access enabled and disabled again"
check_not_contains "$(cat calls.log)" "ncclCommInitAll" "--check links sets up no NCCL"
check_not_contains "$(cat calls.log)" "cublasLtCreate" "--check links sets up no cuBLASLt"
verify four.scenario --lock lock4-min.json --check links
check_eq "$(field links.peer expected)" ">= 390.0 GB/s each way" "the lock's minimum is expected"
check_eq "$(field links.peer reason)" "below the lock's minimum 390.0 GB/s for NVIDIA H200: GPU 0 -> GPU 1 380.0 GB/s, GPU 0 -> GPU 2 380.0 GB/s, GPU 0 -> GPU 3 380.0 GB/s, GPU 1 -> GPU 0 380.0 GB/s and 8 more; far below the others: GPU 2 -> GPU 3 150.0 GB/s (the others' median 380.0 GB/s)" "below the minimum and far below the others"
check_eq "$(field links.host_to_device outcome) $(field links.device_to_host outcome)" "pass pass" "host links above their minimum (and none set for device to host)"

# ---- two GPUs without peer access: measured through the host, not failed without a minimum
cat >nopeer.scenario <<EOF2
gpus 2
no_peer_access 0 1
no_peer_access 1 0
log $WORK/calls.log
EOF2
verify nopeer.scenario --lock lock2.json --check links
check_eq "$(field links.peer outcome)" pass "no peer access alone is no failure"
check_eq "$(field links.peer found)" "slowest 12.0 GB/s (GPU 0 -> GPU 1); 2 without peer access" "pairs without peer access said"
check_not_contains "$(cat calls.log)" "peer enable" "no access enabled where the driver has none"

# ---- a copy that fails is named; the other checks still run
cat >fault.scenario <<EOF2
gpus 2
fail cuMemcpyPeerAsync 14
wrong_answer 1
EOF2
verify fault.scenario --lock lock2.json --check gpu,smoke,links
check_eq "$(field links.peer reason)" "GPU 1 -> GPU 0: cuMemcpyPeerAsync: unspecified launch failure (CUDA_ERROR_LAUNCH_FAILED)" "the failed copy named with the driver's words"
check_eq "$(field links.peer figure:peer_0_1)" "380.0" "the other direction still measured"
check_eq "$(field links.host_to_device outcome)" pass "host links unaffected"
if [ "$built_in" = yes ]; then
  check_eq "$(field gpu.1.smoke reason)" "1 wrong answers, first at element 7" "a wrong known answer on GPU 1"
  check_eq "$(field gpu.0.smoke outcome)" pass "GPU 0's known answer still passes"
fi

# ---- one GPU: the peer part skips with the reason, host links measured
verify two.scenario --lock lock1.json --devices 0 --check links,allreduce
check_eq "$(field links.peer outcome)" skip "one GPU: links.peer skipped"
check_eq "$(field links.peer reason)" "one GPU: no pair to measure" "one GPU: the reason"
check_eq "$(field links.device_to_host outcome)" pass "one GPU: host links measured"
check_eq "$(field nccl.busbw reason)" "one GPU: no communication" "one GPU: no bus bandwidth"

# ---- --quick: the slow groups skipped with the reason unless --check names them
printf 'gpus 2\nlog %s/calls.log\n' "$WORK" >quick.scenario
verify quick.scenario --lock lock2.json --quick
for id in links.peer links.device_to_host nccl.allreduce nccl.busbw; do
  check_eq "$(field $id outcome)" skip "--quick: $id skipped"
done
check_eq "$(field links.peer reason)" "not run under --quick; --check links runs it" "--quick: the links' reason"
check_eq "$(field nccl.allreduce reason)" "not run under --quick; --check allreduce runs it" "--quick: the all-reduce's reason"
check_not_contains "$(cat calls.log)" "ncclCommInitAll" "--quick sets up no NCCL"
if [ "$built_in" = yes ]; then
  check_eq "$(field gpu.0.gemm_bf16 outcome)" pass "--quick: the small product passes"
  check_eq "$(field gpu.0.gemm_bf16 found)" "within tolerance (256^3; not timed: --quick)" "--quick: the GEMM untimed"
  check_eq "$(field gpu.0.gemm_bf16 figure:gemm_bf16_8192)" "(none)" "--quick: no GEMM figure"
fi
verify quick.scenario --lock lock2.json --quick --check links,allreduce
check_eq "$(field links.peer outcome) $(field nccl.allreduce outcome)" "pass pass" "--quick --check links,allreduce runs them"
# The prolog's part loads neither library.
verify quick.scenario --lock lock2.json --quick --check gpu,smoke
check_not_contains "$(cat calls.log)" "cublasLtCreate" "--quick --check gpu,smoke: no cuBLASLt"
check_not_contains "$(cat calls.log)" "ncclCommInitAll" "--quick --check gpu,smoke: no NCCL"
check_eq "$(ids)" "gpu.count gpu.model gpu.visible gpu.0.smoke gpu.0.bandwidth gpu.1.smoke gpu.1.bandwidth" "--quick --check gpu,smoke: the prolog's checks"

finish
