#!/usr/bin/env bash
# The GPU machine's run of the node health checks (docs/manual/health.md): `envlock node` with its
# health facts, `envlock node --check` against a lock describing this machine (the defaults, then
# explicit expectations, then one it cannot meet: 18 NVLink links), the prolog's work as Slurm
# runs it, and the timings: `envlock node --check` (target <= 100 ms), the health reading alone
# (bench_health), the whole prolog cold and warm (target <= 1 s) beside `nvidia-smi -q`'s wall
# time. Then every health value beside what `nvidia-smi -q` (and dmesg, /proc, sysfs) say, for
# the closing note. Asserts nothing.
# Usage: bench/gpu/health.sh ENVLOCK ENVLOCK_VERIFY OUTDIR [BENCH_HEALTH]
#   BENCH_HEALTH: the bench_health program (default: build/bench/bench_health beside ENVLOCK)
set -u
envlock=$(realpath "$1")
verify=$(realpath "$2")
out=$3
bench_health=${4:-$(dirname "$envlock")/bench/bench_health}
. "$(dirname "$0")/setup.sh"
mkdir -p "$out/bin"
ln -sf "$envlock" "$out/bin/envlock"
ln -sf "$verify" "$out/bin/envlock-verify"
node=$(hostname -s)
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() { local s; s=$(now); "$@" >/dev/null 2>&1; awk "BEGIN{printf \"%.3f\\n\", $(now) - $s}"; }

# ---- the locks: this machine's GPUs and host facts, and expect.host.health three ways
python3 "$here/make_machine_lock.py" "$repo/tests/data/verify/lock.json" "$gpus" >"$out/machine-lock.json"
"$envlock" node --format json --no-dcgm -o "$out/facts-for-lock.json"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
lock = json.load(open(out + "/machine-lock.json"))
facts = json.load(open(out + "/facts-for-lock.json"))["facts"]
host = {k: facts[k]["value"] for k in ("os", "kernel", "driver", "gpu.model", "gpu.count")
        if facts.get(k, {}).get("value") is not None}
for name, health in (("lock-defaults", {}),
                     ("lock-explicit", {"pcie_gen": 5, "pcie_width": 16, "mig": "disabled",
                                        "max_temperature_c": 85}),
                     ("lock-nvlink18", {"nvlink_links": 18})):
    lock["expect"]["host"] = dict(host, health=health)
    json.dump(lock, open(f"{out}/{name}.json", "w"), indent=2, sort_keys=True)
PY

# ---- the facts and the checks
"$envlock" node >"$out/node.txt" 2>&1
"$envlock" node --format json -o "$out/facts.json"
echo "== envlock node --check (the defaults), exit: see below"
"$envlock" node --check --lock "$out/lock-defaults.json" >"$out/check-defaults.txt" 2>&1
echo "exit $? (expected 0: no false failure on a healthy machine)"
cat "$out/check-defaults.txt"
"$envlock" node --check --format json --lock "$out/lock-defaults.json" -o "$out/check-defaults.json"
echo "== envlock node --check --idle --no-dcgm (the prolog's), explicit expectations"
"$envlock" node --check --idle --no-dcgm --lock "$out/lock-explicit.json" >"$out/check-explicit.txt" 2>&1
echo "exit $? (expected 0)"
grep -E '^(FAIL|SKIP)|passed,' "$out/check-explicit.txt"
echo "== a lock this machine cannot meet (18 NVLink links per GPU)"
"$envlock" node --check --no-dcgm --lock "$out/lock-nvlink18.json" >"$out/check-nvlink18.txt" 2>&1
echo "exit $? (expected 1)"
grep -E '^FAIL' "$out/check-nvlink18.txt"

# ---- timings
smi_s=$(for _ in 1 2 3 4 5; do timed nvidia-smi -q; done | median)
check_s=$(for _ in 1 2 3 4 5 6 7; do timed "$envlock" node --check --idle --no-dcgm --lock "$out/lock-defaults.json"; done | median)
facts_s=$(for _ in 1 2 3 4 5 6 7; do timed "$envlock" node --no-dcgm --format json; done | median)
prolog() { # the prolog as Slurm runs it through a site's wrapper; prints its wall time and exit
  local s rc
  s=$(now)
  env -i SLURMD_NODENAME="$node" SLURM_JOB_ID=1 ENVLOCK_LOCK="$out/lock-defaults.json" ENVLOCK_BIN="$out/bin" \
    "$repo/share/slurm/envlock-prolog" >>"$out/prolog.log" 2>&1
  rc=$?
  echo "$(awk "BEGIN{printf \"%.3f\", $(now) - $s}") $rc"
}
cold=$(prolog)
warm=$(for _ in 1 2 3 4 5; do prolog | cut -d' ' -f1; done | median)
rcs=$(for _ in 1 2 3; do prolog | cut -d' ' -f2; done | sort -u | tr '\n' ' ')
verify_s=$(for _ in 1 2 3; do timed "$verify" --quick --check gpu,smoke --lock "$out/lock-defaults.json"; done | median)
echo "== timings on $node ($gpus GPUs)"
echo "envlock node --check --idle --no-dcgm (health included): median $check_s s; target <= 0.100 s"
echo "envlock node --no-dcgm --format json: median $facts_s s; nvidia-smi -q: median $smi_s s"
if [ -x "$bench_health" ]; then
  "$bench_health" 20
else
  echo "bench_health: not built at $bench_health (cmake --build build --target bench_health)"
fi
echo "prolog: cold $(cut -d' ' -f1 <<<"$cold") s (exit $(cut -d' ' -f2 <<<"$cold")), warm median $warm s (exits: $rcs); target <= 1 s"
echo "  of which envlock-verify --quick --check gpu,smoke alone: median $verify_s s (they run side by side)"
grep 'envlock-prolog' "$out/prolog.log" | tail -3

# ---- every health value beside nvidia-smi -q
nvidia-smi -q >"$out/nvidia-smi-q.txt" 2>&1
nvidia-smi nvlink -s >"$out/nvidia-smi-nvlink.txt" 2>&1
{ dmesg 2>&1 | grep -c 'NVRM: Xid'; } >"$out/dmesg-xids.txt"
python3 "$here/health_side_by_side.py" "$out/facts.json" "$out/nvidia-smi-q.txt" \
  "$out/nvidia-smi-nvlink.txt" "$out/dmesg-xids.txt"
echo "== nvidia-smi -q (raw, $out/nvidia-smi-q.txt)"
cat "$out/nvidia-smi-q.txt"
