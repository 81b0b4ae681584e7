#!/usr/bin/env bash
# The GPU machine's checkpoint-load run (docs/manual/verify.md#the-checkpoint-load-check): a
# checkpoint written by one process (the resume check's first run, step 50, the bundled trainer)
# is loaded by another, envlock-verify --check checkpoint-load, which trains 5 more steps. On 1
# GPU and on all GPUs (torchrun), through --train-cmd with {ckpt}, and against a truncated and a
# foreign checkpoint (both must fail, naming the file). Prints each run's exit code, wall time
# (issue 19's figure: the checkpoint-load check's wall time on one H200) and the table.
# Usage: bench/gpu/checkpoint_load.sh ENVLOCK_VERIFY OUTDIR
set -u
verify=$1
out=$2
. "$(dirname "$0")/setup.sh"
resume_lock "$out/lock.json"
run_verify() { # NAME CHECK [env...] -- [verify args...]
  local name=$1 check=$2
  shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local start end rc
  start=$(now)
  env "${envs[@]}" "$verify" --lock "$out/lock.json" --check "$check" -o "$out/$name.json" \
    "$@" >"$out/$name.txt" 2>&1
  rc=$?
  end=$(now)
  echo "== $name rc=$rc wall_s=$(awk "BEGIN{print $end - $start}")"
  cat "$out/$name.txt"
}

# The writer: the resume check's runs leave work-*/checkpoint (rank<N>.pt at step 50) and the data.
run_verify write-h200x1 resume CUDA_VISIBLE_DEVICES=0 -- --work-dir "$out/work-h200x1"
run_verify write-h200x$gpus resume -- --gpus "$gpus" --work-dir "$out/work-h200x$gpus"
w1=$out/work-h200x1
wn=$out/work-h200x$gpus
ls -l "$w1/checkpoint" "$wn/checkpoint"

# The reader: another process loads the checkpoint and trains 5 steps (expected: rc 0).
run_verify load-h200x1 checkpoint-load CUDA_VISIBLE_DEVICES=0 -- \
  --checkpoint "$w1/checkpoint" --data "$w1/sample_text_document" --work-dir "$out/load-h200x1"
run_verify load-h200x$gpus checkpoint-load -- --gpus "$gpus" \
  --checkpoint "$wn/checkpoint" --data "$wn/sample_text_document" --work-dir "$out/load-h200x$gpus"
script=$repo/share/resume/envlock_resume.py
run_verify load-h200x1-traincmd checkpoint-load CUDA_VISIBLE_DEVICES=0 -- \
  --checkpoint "$w1/checkpoint" --data "$w1/sample_text_document" --work-dir "$out/load-traincmd" \
  --train-cmd "$python $script train --data {data} --steps {steps} --load {ckpt} --extra-steps {extra_steps} --records /dev/stdout" \
  --loss-pattern '"loss": "{loss}", "lr": "{lr}", "step": {step}'

# Checkpoints that must fail (expected: rc 1, the file named).
mkdir -p "$out/truncated" "$out/foreign"
head -c $(( $(stat -c %s "$w1/checkpoint/rank0.pt") / 2 )) "$w1/checkpoint/rank0.pt" >"$out/truncated/rank0.pt"
run_verify load-truncated checkpoint-load CUDA_VISIBLE_DEVICES=0 -- \
  --checkpoint "$out/truncated" --data "$w1/sample_text_document" --work-dir "$out/load-truncated"
python3 -c 'import sys, torch; torch.save({"weights": torch.zeros(4)}, sys.argv[1])' "$out/foreign/rank0.pt"
run_verify load-foreign checkpoint-load CUDA_VISIBLE_DEVICES=0 -- \
  --checkpoint "$out/foreign" --data "$w1/sample_text_document" --work-dir "$out/load-foreign"

python3 - "$out" "$gpus" <<'PY'
import json, os, sys
out, gpus = sys.argv[1], sys.argv[2]
for name in ["load-h200x1", "load-h200x" + gpus, "load-h200x1-traincmd", "load-truncated", "load-foreign"]:
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path):
        print("%-22s no report" % name)
        continue
    report = json.load(open(path))
    for check in report["checks"]:
        if check["id"].startswith("checkpoint."):
            trainer = check.get("details", {}).get("trainer", {})
            print("%-22s %-17s %-5s %7.1f s  torch %s  %s" % (
                name, check["id"], check["outcome"], check.get("seconds", 0) or 0,
                trainer.get("torch"), check["found"] or check["reason"]))
PY
