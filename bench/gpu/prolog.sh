#!/usr/bin/env bash
# The GPU machine's run of the Slurm prolog (share/slurm/envlock-prolog): the whole prolog's wall
# time against the target of 2 s, run as Slurm runs it (an environment holding only what the
# site's wrapper sets and SLURMD_NODENAME), cold once and then the median of 5 warm runs, with
# its two checks timed alone beside it: `envlock node --check` and `envlock-verify --quick --check
# gpu,smoke`. The lock describes this machine: bench/gpu/make_machine_lock.py, then expect.host
# from `envlock node --json` (os, kernel, driver, gpu.model, gpu.count). A second lock expecting
# another driver must make the prolog fail (exit 1) naming host.driver; without Slurm here, its
# scontrol step only logs. Asserts nothing.
# Usage: bench/gpu/prolog.sh ENVLOCK ENVLOCK_VERIFY OUTDIR
set -u
envlock=$(realpath "$1")
verify=$(realpath "$2")
out=$3
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
mkdir -p "$out/bin"
ln -sf "$envlock" "$out/bin/envlock"
ln -sf "$verify" "$out/bin/envlock-verify"
gpus=$(python3 -c 'import torch; print(torch.cuda.device_count())')
python3 "$here/make_machine_lock.py" "$repo/tests/data/verify/lock.json" "$gpus" >"$out/machine-lock.json"
"$envlock" node --json >"$out/node-facts.json"
python3 - "$out/machine-lock.json" "$out/node-facts.json" "$out/lock.json" "$out/other-driver-lock.json" <<'PY'
import json, sys
lock = json.load(open(sys.argv[1]))
facts = json.load(open(sys.argv[2]))["facts"]
host = {}
for key in ("os", "kernel", "driver", "gpu.model", "gpu.count"):
    value = facts.get(key, {}).get("value")
    if value is not None:
        host[key] = value
lock["expect"]["host"] = host
json.dump(lock, open(sys.argv[3], "w"), indent=2, sort_keys=True)
lock["expect"]["host"]["driver"] = "1.0.*"
json.dump(lock, open(sys.argv[4], "w"), indent=2, sort_keys=True)
PY
node=$(hostname -s)
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
prolog() { # LOCK: the prolog as Slurm runs it through a site's wrapper; prints its wall time
  local s rc
  s=$(now)
  env -i SLURMD_NODENAME="$node" SLURM_JOB_ID=1 ENVLOCK_LOCK="$1" ENVLOCK_BIN="$out/bin" \
    "$repo/share/slurm/envlock-prolog" >>"$out/prolog.log" 2>&1
  rc=$?
  echo "$(awk "BEGIN{print $(now) - $s}") $rc"
}
timed() { local s; s=$(now); "$@" >>"$out/parts.log" 2>&1; awk "BEGIN{print $(now) - $s}"; }

echo "expect.host: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["expect"]["host"])' "$out/lock.json")"
cold=$(prolog "$out/lock.json")
warm=$(for _ in 1 2 3 4 5; do prolog "$out/lock.json" | cut -d' ' -f1; done | median)
rcs=$(for _ in 1 2 3; do prolog "$out/lock.json" | cut -d' ' -f2; done | sort -u | tr '\n' ' ')
host_s=$(for _ in 1 2 3; do timed "$envlock" node --check --lock "$out/lock.json"; done | median)
verify_s=$(for _ in 1 2 3; do timed "$verify" --quick --check gpu,smoke --lock "$out/lock.json"; done | median)
bad=$(prolog "$out/other-driver-lock.json")
"$verify" --quick --check gpu,smoke --lock "$out/lock.json" >"$out/verify-table.txt" 2>&1

echo "prolog on $node ($gpus GPUs): cold $(cut -d' ' -f1 <<<"$cold") s (exit $(cut -d' ' -f2 <<<"$cold")), warm median $warm s (exits: $rcs); target <= 1 s"
echo "  envlock node --check alone: $host_s s; envlock-verify --quick --check gpu,smoke alone: $verify_s s (they run side by side)"
echo "prolog with a lock expecting driver 1.0.*: exit $(cut -d' ' -f2 <<<"$bad") in $(cut -d' ' -f1 <<<"$bad") s (expected exit 1)"
grep 'envlock-prolog' "$out/prolog.log" | tail -3
cat "$out/verify-table.txt"
