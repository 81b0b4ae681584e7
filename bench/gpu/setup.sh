# Sourced by the GPU machine's bench scripts after `verify=$1 out=$2`: the repository's folders,
# NVLink multicast off (shared machines), unbuffered Python, the GPU count, `now`, and
# `resume_lock FILE`: a lock describing this machine with the resume check's declared tolerances.
# The Python environment is found as on a user's node (python3 on PATH, no VIRTUAL_ENV set).
here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
mkdir -p "$out"
gpus=$(python3 -c 'import torch; print(torch.cuda.device_count())')
now() { date +%s.%N; }
python=$(command -v python3)
resume_lock() {
  python3 "$here/make_machine_lock.py" "$repo/tests/data/verify/lock.json" "$gpus" >"$1"
  python3 - "$1" <<'PY'
import json, sys
lock = json.load(open(sys.argv[1]))
lock["expect"]["resume"] = {"steps": 100, "checkpoint_step": 50, "loss_abs": 1e-6,
                            "loss_rel": 1e-6, "lr_abs": 0, "param_abs": 1e-6, "param_rel": 1e-5}
json.dump(lock, open(sys.argv[1], "w"), indent=2, sort_keys=True)
PY
}
