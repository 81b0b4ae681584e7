#!/usr/bin/env bash
# The GPU machine's run for envlock-verify in the field (docs/manual/verify.md, resume.md), with
# the Python environment found as a user's would be (VIRTUAL_ENV and UV_PROJECT_ENVIRONMENT unset;
# the machine's venv is first on PATH):
#   1. the whole verify against a lock describing the machine, and against one that names no
#      environment (found on PATH); its wall time against `python3 -c "import torch;
#      torch.cuda.init()"` in the same run (three each, the median), each check's own time, and
#      --quick's;
#   2. two torchrun child failures recorded for the resume check's error-line tests;
#   3. `envlock-verify --check resume --train-cmd` with real Megatron-LM (one GPU, BF16, 20 steps
#      resumed at 10): a full resume, and one whose resumed run has --no-load-optim, at once.
# Usage: bench/gpu/field_run.sh ENVLOCK_VERIFY MEGATRON_DIR OUTDIR
# MEGATRON_DIR: a Megatron-LM tree (pretrain_gpt.py, megatron/); "-" skips part 3.
set -u
verify=$(realpath "$1")
meg=$2
mkdir -p "$3"
out=$(cd "$3" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
unset VIRTUAL_ENV UV_PROJECT_ENVIRONMENT
# NVLink multicast stays off on shared machines.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
now() { date +%s.%N; }
median() { sort -g | sed -n 2p; }

# ---- 1. the whole verify, the environment found on PATH
gpus=$(python3 -c 'import torch; print(torch.cuda.device_count())')
python3 "$here/make_machine_lock.py" "$repo/tests/data/verify/lock.json" "$gpus" >"$work/lock.json"
python3 - "$work/lock.json" "$work/path-lock.json" <<'PY'
import json, sys
lock = json.load(open(sys.argv[1]))
lock["build_args"] = {}
json.dump(lock, open(sys.argv[2], "w"), indent=2, sort_keys=True)
PY
{
  echo "python3 on PATH: $(command -v python3) -> $(readlink -f "$(command -v python3)")"
  echo "VIRTUAL_ENV=${VIRTUAL_ENV-unset} UV_PROJECT_ENVIRONMENT=${UV_PROJECT_ENVIRONMENT-unset}"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} >"$out/field-machine.txt" 2>&1
"$verify" --lock "$work/lock.json" --format json -o "$out/field-verify.json" >"$out/field-verify.txt" 2>&1
echo "verify (lock names the venv) rc=$?"
"$verify" --lock "$work/path-lock.json" --format json -o "$out/field-verify-path.json" \
  >"$out/field-verify-path.txt" 2>&1
echo "verify (found on PATH) rc=$?"
head -3 "$out/field-verify-path.txt"
for i in 1 2 3; do
  t0=$(now); "$verify" --lock "$work/lock.json" >/dev/null 2>&1; t1=$(now)
  awk "BEGIN{print $t1 - $t0}" >>"$work/verify.s"
  t0=$(now); "$verify" --lock "$work/lock.json" --quick >/dev/null 2>&1; t1=$(now)
  awk "BEGIN{print $t1 - $t0}" >>"$work/quick.s"
  t0=$(now); python3 -c "import torch; torch.cuda.init()"; t1=$(now)
  awk "BEGIN{print $t1 - $t0}" >>"$work/torch.s"
done
v=$(median <"$work/verify.s") q=$(median <"$work/quick.s") t=$(median <"$work/torch.s")
{
  printf '%-48s %10s\n' "figure (median of 3, one H200)" "seconds"
  printf '%-48s %10.3f\n' "envlock-verify, whole" "$v" "envlock-verify --quick" "$q" \
    'python3 -c "import torch; torch.cuda.init()"' "$t"
  printf '%-48s %10.3f\n' "ratio whole / torch" "$(awk "BEGIN{print $v / $t}")"
  echo
  echo "each check's own time (field-verify.json, run.check_seconds):"
  python3 - "$out/field-verify.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for k, v in sorted(r["run"]["check_seconds"].items(), key=lambda kv: -kv[1]):
    print("  %-24s %8.3f s" % (k, v))
print("  %-24s %8.3f s" % ("(run total)", r["run"]["seconds"]))
PY
} | tee "$out/field-figures.txt"

# ---- 2. torchrun child failures, recorded as they print
cat >"$work/fail.py" <<'PY'
import os, sys
rank = int(os.environ["RANK"])
print(f"rank {rank} starting", flush=True)
if rank == 1:
    raise RuntimeError("planted failure on rank 1: the checkpoint's optimizer state is missing")
PY
cat >"$work/import_fail.py" <<'PY'
import megatron_that_is_not_installed  # noqa: F401
PY
(cd "$work" && timeout 120 torchrun --standalone --nproc-per-node 2 fail.py) \
  >"$out/torchrun-rank-failure.log" 2>&1
echo "torchrun rank failure rc=$?"
(cd "$work" && timeout 120 torchrun --standalone --nproc-per-node 1 import_fail.py) \
  >"$out/torchrun-import-failure.log" 2>&1
echo "torchrun import failure rc=$?"

# ---- 3. Megatron-LM under --train-cmd
if [ "$meg" != "-" ]; then
  meg=$(cd "$meg" && pwd)
  (
    cd "$meg/megatron/core/datasets" &&
      suffix=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))') &&
      ${CXX:-c++} -O3 -shared -std=c++17 -fPIC $(python3 -m pybind11 --includes) helpers.cpp \
        -o "helpers_cpp$suffix"
  ) >"$work/helpers.log" 2>&1 || echo "dataset helpers: build failed"
  python3 - "$work/lock.json" "$work/resume-lock.json" <<'PY'
import json, sys
lock = json.load(open(sys.argv[1]))
lock["expect"]["resume"] = {"steps": 20, "checkpoint_step": 10}
json.dump(lock, open(sys.argv[2], "w"), indent=2, sort_keys=True)
PY
  model="--num-layers 2 --hidden-size 128 --num-attention-heads 4 --seq-length 128 \
--max-position-embeddings 128 --micro-batch-size 4 --global-batch-size 4 --lr 1e-3 --min-lr 1e-4 \
--lr-warmup-iters 5 --lr-decay-style cosine --weight-decay 0.1 --clip-grad 1.0 --seed 1234 \
--eval-iters 0 --eval-interval 1000 --num-workers 1 --mock-data --tokenizer-type NullTokenizer \
--vocab-size 1024 --transformer-impl local --no-gradient-accumulation-fusion \
--no-masked-softmax-fusion --no-bias-gelu-fusion --no-bias-dropout-fusion --no-rope-fusion \
--no-persist-layer-norm --bf16"
  cmd() { # PORT EXTRA-FOR-THE-RESUMED-RUN
    echo "RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$1 \
CUDA_DEVICE_MAX_CONNECTIONS=1 python3 $meg/pretrain_gpt.py $model --train-iters {steps} \
--exit-interval {stop} --save {ckpt} --load {ckpt} --save-interval {checkpoint_step} \
--log-interval 1 \$( [ {phase} = resumed ] && echo '$2' )"
  }
  t0=$(now)
  "$verify" --lock "$work/resume-lock.json" --check resume --work-dir "$work/good" \
    --train-cmd "$(cmd 29610 '')" --format json -o "$out/megatron-good.json" >"$out/megatron-good.txt" 2>&1 &
  good=$!
  "$verify" --lock "$work/resume-lock.json" --check resume --work-dir "$work/nooptim" \
    --train-cmd "$(cmd 29620 --no-load-optim)" --format json -o "$out/megatron-nooptim.json" \
    >"$out/megatron-nooptim.txt" 2>&1
  echo "megatron without optimizer state rc=$?"
  wait "$good"
  echo "megatron full resume rc=$? (both at once: $(awk "BEGIN{print $(now) - $t0}") s)"
  cat "$out/megatron-good.txt" "$out/megatron-nooptim.txt"
fi
