#!/usr/bin/env bash
# The GPU machine's run for issue 24 (sections 3 and 4), one batched call of a few minutes:
#   1. the checks: the whole envlock-verify against a lock describing the machine, `--check
#      links` (with a lock setting modest link minimums, and one setting impossible ones, which
#      must fail naming the links), `--quick`, `--quick --check gpu,smoke` (the prolog's part);
#   2. the wall times, three rounds, each round running every command once in turn: the whole
#      verify, `--quick`, `--quick --check gpu,smoke`, `python3 -c "import torch;
#      torch.cuda.init()"`, and BASELINE_VERIFY's whole run when given (an envlock-verify built
#      from before this change): medians side by side;
#   3. each check's own time in the whole run (run.check_seconds), the set-up that ran beside
#      other work (details.setup), and the run's own total;
#   4. the link figures beside PyTorch's for the same copies (bench/gpu/torch_links.py);
#   5. with ENVLOCK=path/to/envlock set, the whole prolog (bench/gpu/prolog.sh: `envlock node
#      --check` and `envlock-verify --quick --check gpu,smoke` as Slurm runs them).
# Stops on nothing: every part is guarded and a failure is printed where its figures would be.
# Usage: [ENVLOCK=ENVLOCK] bench/gpu/verify_speed.sh ENVLOCK_VERIFY OUTDIR [BASELINE_VERIFY]
set -u
verify=$(realpath "$1")
mkdir -p "$2"
out=$(cd "$2" && pwd)
baseline=${3:+$(realpath "$3")}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
unset VIRTUAL_ENV UV_PROJECT_ENVIRONMENT
# NVLink multicast stays off on shared machines.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "nan"}'; }
# part NAME CMD...: runs CMD (at most 120 s), says when it failed, never stops the script.
part() {
  local name=$1 rc
  shift
  timeout 120 "$@"
  rc=$?
  [ "$rc" -eq 0 ] || echo "!! $name: exit $rc" >&2
  return 0
}

echo "== machine"
part facts bash -c 'nvidia-smi --query-gpu=index,name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv,noheader; echo "python3: $(command -v python3)"'
gpus=$(python3 -c 'import torch; print(torch.cuda.device_count())' 2>/dev/null || echo 1)
echo "envlock-verify: $verify ($("$verify" --version 2>&1 | head -1))"
[ -n "$baseline" ] && echo "baseline: $baseline ($("$baseline" --version 2>&1 | head -1))"

# Locks: the machine; modest link minimums (judged, must pass); impossible ones (must fail).
part lock python3 "$here/make_machine_lock.py" "$repo/tests/data/verify/lock.json" "$gpus" \
  >"$out/lock.json"
part locks python3 - "$out/lock.json" "$out" <<'PY'
import json, sys
lock = json.load(open(sys.argv[1]))
model = lock["expect"]["gpus"]["model"]
lock["expect"]["links"] = {model: {"peer_gbps": 10, "host_to_device_gbps": 5, "device_to_host_gbps": 5}}
json.dump(lock, open(sys.argv[2] + "/links-lock.json", "w"), indent=2, sort_keys=True)
lock["expect"]["links"] = {model: {"peer_gbps": 100000, "host_to_device_gbps": 100000}}
json.dump(lock, open(sys.argv[2] + "/impossible-links-lock.json", "w"), indent=2, sort_keys=True)
PY

echo
echo "== 1. the checks"
run_table() { # NAME ARGS...: one run, its table and exit code; JSON in OUT/NAME.json
  local name=$1 rc
  shift
  timeout 120 "$verify" --format json -o "$out/$name.json" "$@" >"$out/$name.txt" 2>&1
  rc=$?
  echo "-- envlock-verify $* (exit $rc)"
  cat "$out/$name.txt"
}
run_table whole --lock "$out/links-lock.json"
run_table links --lock "$out/links-lock.json" --check links
run_table impossible --lock "$out/impossible-links-lock.json" --check links
echo "(expected: exit 1, links.host_to_device failing below the lock's minimum)"
run_table quick --lock "$out/links-lock.json" --quick
run_table prolog-part --lock "$out/links-lock.json" --quick --check gpu,smoke

echo
echo "== 2. wall times (three rounds, the median)"
: >"$out/times.txt"
timed() { # LABEL CMD...: appends "LABEL SECONDS RC" to times.txt
  local label=$1 t0 t1 rc
  shift
  t0=$(now)
  timeout 120 "$@" >/dev/null 2>&1
  rc=$?
  t1=$(now)
  echo "$label $(awk "BEGIN{print $t1 - $t0}") $rc" >>"$out/times.txt"
}
for round in 1 2 3; do
  timed whole "$verify" --lock "$out/links-lock.json"
  timed quick "$verify" --lock "$out/links-lock.json" --quick
  timed prolog "$verify" --lock "$out/links-lock.json" --quick --check gpu,smoke
  timed torch python3 -c "import torch; torch.cuda.init()"
  [ -n "$baseline" ] && timed baseline "$baseline" --lock "$out/lock.json"
done
m() { awk -v l="$1" '$1 == l {print $2}' "$out/times.txt" | median; }
rcs() { awk -v l="$1" '$1 == l {print $3}' "$out/times.txt" | sort -u | tr '\n' ' '; }
w=$(m whole) q=$(m quick) p=$(m prolog) t=$(m torch)
{
  printf '%-52s %9s  %s\n' "figure ($gpus x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), median of 3)" seconds "exit codes, rounds"
  printf '%-52s %9.3f  %s\n' "envlock-verify, whole (target <= 1.2)" "$w" "$(rcs whole)"
  printf '%-52s %9.3f  %s\n' "envlock-verify --quick" "$q" "$(rcs quick)"
  printf '%-52s %9.3f  %s\n' "envlock-verify --quick --check gpu,smoke (prolog)" "$p" "$(rcs prolog)"
  printf '%-52s %9.3f  %s\n' 'python3 -c "import torch; torch.cuda.init()"' "$t" "$(rcs torch)"
  [ -n "$baseline" ] && printf '%-52s %9.3f  %s\n' "baseline envlock-verify, whole" "$(m baseline)" "$(rcs baseline)"
  printf '%-52s %9.3f\n' "whole / torch" "$(awk "BEGIN{print $w / $t}")"
  printf '%-52s %8.0f%%\n' "--quick saves, of the whole" "$(awk "BEGIN{print 100 * (1 - $q / $w)}")"
  [ -n "$baseline" ] && printf '%-52s %9.3f\n' "whole / baseline whole" "$(awk "BEGIN{print $w / $(m baseline)}")"
  echo "every run:"
  sed 's/^/  /' "$out/times.txt"
} | tee "$out/figures.txt"

echo
echo "== 3. each check's own time (the whole run above; checks overlap, see docs/manual/verify.md)"
part per-check python3 - "$out/whole.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
seconds = report["run"]["check_seconds"]
for check_id, value in sorted(seconds.items(), key=lambda kv: -kv[1]):
    print("  %-26s %8.3f s" % (check_id, value))
print("  %-26s %8.3f s" % ("(sum of the checks)", sum(seconds.values())))
print("  %-26s %8.3f s" % ("(run.seconds)", report["run"]["seconds"]))
for check in report["checks"]:
    setup = check.get("details", {}).get("setup")
    if setup:
        print("  set-up of %-16s %s" % (check["id"], json.dumps(setup, sort_keys=True)))
PY

echo
echo "== 4. link figures (GB/s): envlock-verify --check links beside PyTorch"
part torch-links python3 "$here/torch_links.py" >"$out/torch-links.txt" 2>&1
cat "$out/torch-links.txt" | grep -v ' GB/s$' | head -5
part link-figures python3 - "$out/links.json" "$out/torch-links.txt" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
ours = {}
for check in report["checks"]:
    if check["id"].startswith("links."):
        for figure in check["figures"]:
            ours[figure["name"]] = figure["value"]
        print("  %-22s %s: %s %s" % (check["id"], check["outcome"], check["found"], check["reason"]))
theirs = {}
for line in open(sys.argv[2]):
    parts = line.split()
    if len(parts) == 3 and parts[2] == "GB/s":
        theirs[parts[0]] = float(parts[1])
print("  %-22s %10s %10s %7s" % ("link", "envlock", "torch", "ratio"))
for name in sorted(set(ours) | set(theirs)):
    a, b = ours.get(name), theirs.get(name)
    ratio = "%.3f" % (a / b) if a and b else "-"
    print("  %-22s %10s %10s %7s" % (name, "%.1f" % a if a else "-", "%.1f" % b if b else "-", ratio))
PY
if [ -n "${ENVLOCK:-}" ]; then
  echo
  echo "== 5. the whole prolog (bench/gpu/prolog.sh)"
  part prolog bash "$here/prolog.sh" "$ENVLOCK" "$verify" "$out/prolog"
fi
echo
echo "done: files in $out"
