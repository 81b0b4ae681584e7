#!/usr/bin/env bash
# The GPU machine's run: envlock-verify against a lock describing the machine (2 GPUs and 1 GPU),
# against a lock expecting another NCCL (must fail naming NCCL), then the benchmark figures side
# by side with PyTorch's: verify wall time vs `import torch; torch.cuda.init()`, smoke copy
# bandwidth vs a torch device-to-device copy, BF16 GEMM vs torch.matmul, busbw at 1 GiB vs
# torch.distributed all_reduce. Usage: bench/gpu/bench_verify.sh ENVLOCK_VERIFY OUTDIR
set -u
verify=$1
out=$2
. "$(dirname "$0")/setup.sh"
template=$repo/tests/data/verify/lock.json
python3 "$here/make_machine_lock.py" "$template" "$gpus" >"$out/h200x$gpus-lock.json"
python3 "$here/make_machine_lock.py" "$template" 1 >"$out/h200x1-lock.json"
python3 "$here/make_machine_lock.py" "$template" "$gpus" 2.30.7 >"$out/nccl-mismatch-lock.json"

run_verify() { # NAME LOCK [env...]: runs envlock-verify, prints its exit code and wall time
  local name=$1 lock=$2
  shift 2
  local start end rc
  start=$(now)
  env "$@" "$verify" --lock "$lock" --json "$out/$name.json" >"$out/$name.txt" 2>&1
  rc=$?
  end=$(now)
  echo "$name rc=$rc wall_s=$(awk "BEGIN{print $end - $start}")"
  cat "$out/$name.txt"
}
run_verify "h200x$gpus-pass" "$out/h200x$gpus-lock.json"
run_verify h200x1-pass "$out/h200x1-lock.json" CUDA_VISIBLE_DEVICES=0
run_verify "h200x$gpus-nccl-mismatch" "$out/nccl-mismatch-lock.json"

# Wall times, warm caches: the second of two runs each.
for i in 1 2; do
  start=$(now); "$verify" --lock "$out/h200x$gpus-lock.json" >/dev/null 2>&1; end=$(now)
  verify_wall=$(awk "BEGIN{print $end - $start}")
  start=$(now); python3 -c "import torch; torch.cuda.init()"; end=$(now)
  torch_wall=$(awk "BEGIN{print $end - $start}")
done
python3 "$here/torch_reference.py" >"$out/torch.txt" 2>&1
cat "$out/torch.txt"
python3 - "$out/h200x$gpus-pass.json" "$out/torch.txt" "$verify_wall" "$torch_wall" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
figures = {}
for check in report.get("checks", []):
    for figure in check.get("figures", []):
        figures[check["id"] + ":" + figure["name"]] = figure["value"]
torch = {}
for line in open(sys.argv[2]):
    parts = line.split()
    if len(parts) == 3:
        try:
            torch[parts[0]] = float(parts[1])
        except ValueError:
            pass
rows = [
    ("whole verify vs torch import+cuda.init (s)", float(sys.argv[3]), float(sys.argv[4]), "lower"),
    ("copy bandwidth GPU 0 (TB/s)", figures.get("gpu.0.bandwidth:copy_bandwidth"),
     torch.get("torch_copy_bandwidth"), "higher"),
    ("BF16 GEMM 8192^3 GPU 0 (TFLOP/s)", figures.get("gpu.0.gemm_bf16:gemm_bf16_8192"),
     torch.get("torch_gemm_bf16"), "higher"),
    ("all-reduce busbw 1GiB (GB/s)", figures.get("nccl.busbw:busbw_1GiB"),
     torch.get("torch_allreduce_busbw_1GiB"), "higher"),
]
print("%-44s %12s %12s %8s" % ("figure", "envlock", "torch", "ratio"))
for name, ours, ref, better in rows:
    ratio = (ours / ref) if ours and ref else float("nan")
    print("%-44s %12s %12s %8.3f  (%s is better)" % (name, ours if ours is None else "%.3f" % ours,
                                                    ref if ref is None else "%.3f" % ref, ratio, better))
PY
