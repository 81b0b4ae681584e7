#!/usr/bin/env bash
# The GPU machine's resume-check run (docs/manual/resume.md): envlock-verify --check resume against
# a lock describing the machine with `expect.resume` tolerances declared before the run, on 1 GPU,
# on 2 GPUs (torchrun, DDP over NCCL), on 2 GPUs with the data position deliberately not restored
# (must fail naming the step where the runs diverge), and through --train-cmd with the bundled
# trainer as the "user's" command. Prints each run's exit code and wall time.
# Usage: bench/gpu/bench_resume.sh ENVLOCK_VERIFY OUTDIR
set -u
verify=$1
out=$2
. "$(dirname "$0")/setup.sh"
resume_lock "$out/lock.json"
run_resume() { # NAME [env...] -- [verify args...]
  local name=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local start end rc
  start=$(now)
  env "${envs[@]}" "$verify" --lock "$out/lock.json" --check resume --json "$out/$name.json" \
    --junit "$out/$name.junit.xml" --work-dir "$out/work-$name" "$@" >"$out/$name.txt" 2>&1
  rc=$?
  end=$(now)
  echo "== $name rc=$rc wall_s=$(awk "BEGIN{print $end - $start}")"
  cat "$out/$name.txt"
}
run_resume h200x1-resume CUDA_VISIBLE_DEVICES=0 --
run_resume "h200x$gpus-resume" -- --gpus "$gpus"
run_resume "h200x$gpus-resume-broken" ENVLOCK_RESUME_BREAK=data_position -- --gpus "$gpus"
script=$repo/share/resume/envlock_resume.py
run_resume h200x1-resume-traincmd CUDA_VISIBLE_DEVICES=0 -- \
  --train-cmd "$python $script train --data {data} --stop {stop} --records /dev/stdout --save {ckpt} \$([ {phase} = resumed ] && echo --load {ckpt})" \
  --loss-pattern '"loss": "{loss}", "lr": "{lr}", "step": {step}'
