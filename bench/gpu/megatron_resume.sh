#!/usr/bin/env bash
# Why does a Megatron-LM resume differ from a continuous run? The three runs of
# `envlock-verify --check resume --train-cmd` (docs/manual/resume.md) done by hand with real
# Megatron-LM (pretrain_gpt.py, --mock-data, --transformer-impl local, one GPU, a 2-layer model
# of width 128, 20 steps, checkpoint at step 10), in BF16 and FP32, each in several variants:
#   cont-a, cont-b      two identical continuous runs 0 -> 20 (both save at step 10): noise floor
#   cont-nosave         (bf16) a continuous run that saves nothing: does saving change training?
#   first, res-full     0 -> 10 saving a torch_dist checkpoint; 10 -> 20 loading everything
#   res-nooptim         10 -> 20 with --no-load-optim (Megatron then skips optimizer AND scheduler)
#   res-norng           10 -> 20 with --no-load-rng
#   first-torch, res-torch       the same resume with --ckpt-format torch
#   det-cont-a, det-cont-b, det-first, det-res-full   all of it under --deterministic-mode with
#                       NCCL_ALGO=Ring CUBLAS_WORKSPACE_CONFIG=:4096:8 NVTE_ALLOW_NONDETERMINISTIC_ALGO=0
# Every run goes through bench/gpu/megatron_resume_probe.py, which runs pretrain_gpt.py unchanged
# and prints each step's loss and learning rate in exact hex plus hashes of the optimizer state;
# it also dumps that state after steps 10 and 11 and before a process's first step, so
# bench/gpu/megatron_resume_report.py can say which part of the state a load did not restore.
# The continuous runs and first halves run at the same time on the one GPU, then the resumed
# halves; at the end one bf16 trio (cont, first, resumed) runs alone for wall times, unless more
# than SOLO_BEFORE_S seconds (default 330) have passed. Each run is stopped after RUN_TIMEOUT
# seconds (default 200).
#
# Usage: bench/gpu/megatron_resume.sh MEGATRON_DIR OUTDIR
#   MEGATRON_DIR  a Megatron-LM source tree (pretrain_gpt.py, gpt_builders.py, model_provider.py,
#                 megatron/); a file MEGATRON_DIR/.source may name its tag and commit
#   OUTDIR        gets report.txt (the table), logs.tar.gz (every run's output) and versions.txt;
#                 checkpoints and state dumps go to $WORK (default: a temporary folder)
# Needs python3 with PyTorch and a CUDA GPU, numpy, einops, packaging, pyyaml, pybind11 and a C++
# compiler (for Megatron's dataset helpers; without them the probe's Python version is used).
# Measured on one H200: bench/results/h200x1-megatron-resume.txt.
set -u
meg=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK:-$(mktemp -d)}
mkdir -p "$work/logs" "$work/ckpt" "$work/dump"
# NVLink multicast stays off on shared machines.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1 CUDA_DEVICE_MAX_CONNECTIONS=1
start_all=$(date +%s.%N)

{
  echo "megatron: $(cat "$meg/.source" 2>/dev/null || echo unknown)"
  python3 -c 'import sys, torch, numpy; print("python", sys.version.split()[0]); print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version()); print("numpy", numpy.__version__); print("gpu", torch.cuda.get_device_name(0))'
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1
  for m in apex transformer_engine; do python3 -c "import $m" 2>/dev/null && echo "$m: present" || echo "$m: absent"; done
} >"$out/versions.txt" 2>&1

# Megatron's dataset index helpers (megatron/core/datasets/helpers.cpp), built once here.
(
  cd "$meg/megatron/core/datasets" &&
    suffix=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))') &&
    ${CXX:-c++} -O3 -Wall -shared -std=c++17 -fPIC $(python3 -m pybind11 --includes) helpers.cpp \
      -o "helpers_cpp$suffix"
) >"$work/logs/helpers-build.log" 2>&1 && echo "dataset helpers: compiled" >>"$out/versions.txt" ||
  echo "dataset helpers: build failed, Python stand-in used (see helpers-build.log)" >>"$out/versions.txt"

model=(--num-layers 2 --hidden-size 128 --num-attention-heads 4 --seq-length 128
  --max-position-embeddings 128 --micro-batch-size 4 --global-batch-size 4 --train-iters 20
  --lr 1e-3 --min-lr 1e-4 --lr-warmup-iters 5 --lr-decay-style cosine --weight-decay 0.1
  --clip-grad 1.0 --seed 1234 --log-interval 1 --save-interval 10 --eval-iters 0
  --eval-interval 1000 --num-workers 1 --mock-data --tokenizer-type NullTokenizer
  --vocab-size 1024 --transformer-impl local --no-gradient-accumulation-fusion
  --no-masked-softmax-fusion --no-bias-gelu-fusion --no-bias-dropout-fusion --no-rope-fusion
  --no-persist-layer-norm)
det_env=(NCCL_ALGO=Ring CUBLAS_WORKSPACE_CONFIG=:4096:8 NVTE_ALLOW_NONDETERMINISTIC_ALGO=0)
port=29500

run() { # NAME [VAR=VALUE...] -- [pretrain_gpt arguments...]
  local name=$1
  shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local t0 t1 rc
  t0=$(date +%s.%N)
  env "${envs[@]}" RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
    PROBE_DUMP_DIR="$work/dump/$name" PROBE_DUMP_STEPS=10,11 \
    timeout "${RUN_TIMEOUT:-200}" python3 "$here/megatron_resume_probe.py" "$meg" "${model[@]}" "$@" \
    >"$work/logs/$name.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  echo "$name rc=$rc wall_s=$(awk "BEGIN{printf \"%.1f\", $t1 - $t0}")" >"$work/logs/$name.time"
  cat "$work/logs/$name.time"
}

launch() { # the same as run, in the background, each with its own rendezvous port
  port=$((port + 1))
  run "$@" &
}

phase() { # PRECISION_NAME PRECISION_FLAGS... ; the runs that need no checkpoint
  local p=$1
  shift
  launch "$p-cont-a" -- "$@" --exit-interval 20 --save "$work/ckpt/$p-cont-a"
  launch "$p-cont-b" -- "$@" --exit-interval 20 --save "$work/ckpt/$p-cont-b"
  launch "$p-first" -- "$@" --exit-interval 10 --save "$work/ckpt/$p-first"
  launch "$p-first-torch" -- "$@" --exit-interval 10 --save "$work/ckpt/$p-first-torch" \
    --ckpt-format torch
  launch "$p-det-cont-a" "${det_env[@]}" -- "$@" --deterministic-mode --exit-interval 20 \
    --save "$work/ckpt/$p-det-cont-a"
  launch "$p-det-cont-b" "${det_env[@]}" -- "$@" --deterministic-mode --exit-interval 20 \
    --save "$work/ckpt/$p-det-cont-b"
  launch "$p-det-first" "${det_env[@]}" -- "$@" --deterministic-mode --exit-interval 10 \
    --save "$work/ckpt/$p-det-first"
}

resumes() { # PRECISION_NAME PRECISION_FLAGS...
  local p=$1
  shift
  # Each resumed run saves into its own folder so the first half's checkpoint stays as saved.
  launch "$p-res-full" -- "$@" --exit-interval 20 --load "$work/ckpt/$p-first" \
    --save "$work/ckpt/$p-res-full"
  launch "$p-res-nooptim" -- "$@" --exit-interval 20 --load "$work/ckpt/$p-first" \
    --save "$work/ckpt/$p-res-nooptim" --no-load-optim
  launch "$p-res-norng" -- "$@" --exit-interval 20 --load "$work/ckpt/$p-first" \
    --save "$work/ckpt/$p-res-norng" --no-load-rng
  launch "$p-res-torch" -- "$@" --exit-interval 20 --load "$work/ckpt/$p-first-torch" \
    --save "$work/ckpt/$p-res-torch" --ckpt-format torch
  launch "$p-det-res-full" "${det_env[@]}" -- "$@" --deterministic-mode --exit-interval 20 \
    --load "$work/ckpt/$p-det-first" --save "$work/ckpt/$p-det-res-full"
}

echo "== phase 1: continuous runs and first halves, concurrently"
phase bf16 --bf16
phase fp32
launch bf16-cont-nosave -- --bf16 --exit-interval 20
wait
echo "== phase 2: resumed halves, concurrently"
resumes bf16 --bf16
resumes fp32
wait
elapsed=$(awk "BEGIN{printf \"%d\", $(date +%s.%N) - $start_all}")
if [ "$elapsed" -lt "${SOLO_BEFORE_S:-330}" ]; then
  echo "== phase 3: one bf16 trio alone, for wall times"
  port=$((port + 1))
  run solo-cont -- --bf16 --exit-interval 20 --save "$work/ckpt/solo-cont"
  port=$((port + 1))
  run solo-first -- --bf16 --exit-interval 10 --save "$work/ckpt/solo-first"
  port=$((port + 1))
  run solo-res-full -- --bf16 --exit-interval 20 --load "$work/ckpt/solo-first" \
    --save "$work/ckpt/solo-res-full"
else
  echo "== phase 3 skipped: ${elapsed}s already spent"
fi
end_all=$(date +%s.%N)
echo "all runs: wall_s=$(awk "BEGIN{printf \"%.1f\", $end_all - $start_all}")" >"$work/logs/all.time"

python3 "$here/megatron_resume_report.py" "$work" >"$out/report.txt" 2>&1
cat "$out/versions.txt" "$out/report.txt"
tar -czf "$out/logs.tar.gz" -C "$work" logs
