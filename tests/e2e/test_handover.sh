# envlock node on this machine (no GPU here: the facts say why they are missing) and
# envlock handover from a full and a partial set of records (goldens, deterministic bytes).
. "$REPO/tests/e2e/lib.sh"
need_tools python3
DATA=$REPO/tests/data/handover

run_cmd n "$ENVLOCK" node --format json
check_eq "$n_rc" 0 "node --format json exits 0"
printf '%s\n' "$n_out" > node.json
fact() { python3 -c 'import json,sys; f=json.load(open("node.json"))["facts"][sys.argv[1]]; print(f.get("value") if f.get("value") is not None else "missing: " + f["missing"])' "$1"; }
check_eq "$(fact kernel)" "$(cat /proc/sys/kernel/osrelease)" "kernel fact"
check_eq "$(python3 -c 'import json; print(json.load(open("node.json"))["schema"])')" "envlock.node-facts/v1" "node facts schema"
if [ ! -e /proc/driver/nvidia/version ] && ! command -v nvidia-smi >/dev/null; then
  check_eq "$(fact driver)" "missing: /proc/driver/nvidia/version: not found" "driver missing, with the reason"
  check_eq "$(fact gpu.count)" "missing: libnvidia-ml.so.1 not found; nvidia-smi: not in PATH" "GPUs missing, with the reason"
  check_eq "$(python3 -c 'import json; print(json.load(open("node.json"))["gpus"])')" "[]" "no GPU list"
  cp "$DATA/full/envlock.lock.json" envlock.lock.json
  run_cmd c "$ENVLOCK" node --check --lock envlock.lock.json
  check_eq "$c_rc" 1 "node --check fails on this host"
  check_contains "$c_out" "missing: /proc/driver/nvidia/version: not found" "check names the missing driver"
  run_cmd c "$ENVLOCK" node --check --format json --no-dcgm --lock envlock.lock.json
  check_eq "$(printf '%s' "$c_out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["outcome"], [c["id"] for c in d["checks"] if c["id"].startswith("host.")])')" \
    "fail ['host.driver', 'host.fabric_manager', 'host.kernel', 'host.os']" "node --check --format json"
  check_eq "$(printf '%s' "$c_out" | python3 -c 'import json,sys; print([c["details"]["drain"] for c in json.load(sys.stdin)["checks"] if c["id"].startswith("health.") and c["outcome"] == "fail"][0])')" \
    "health.gpu.nvml: drain" "the lock expects 8 GPUs: the first health failure is NVML missing, and says to drain"
else
  echo "note: this host has an NVIDIA driver; the no-GPU reasons are not asserted"
fi
if command -v slurmd >/dev/null; then
  check_eq "$(fact slurm)" "$(slurmd -V | awk '{print $2}')" "slurm version fact"
fi

full=(--lock "$DATA/full/envlock.lock.json" --provenance "$DATA/full/provenance.json"
  --build-result "$DATA/full/build-result.json" --squashfs-result "$DATA/full/squashfs-result.json"
  --node "$DATA/full/node.json" --reports "$DATA/full/reports" --previous-lock "$DATA/full/previous.lock.json"
  --rollback "$DATA/full/rollback-report.json")
for ext in md html json; do
  run_cmd h "$ENVLOCK" handover "${full[@]}" -o "handover.$ext"
  check_eq "$h_rc" 0 "handover .$ext exits 0"
  check_eq "$(cat "handover.$ext")" "$(cat "$DATA/full.$ext")" "golden full .$ext"
done
check_eq "$h_err" "envlock: wrote handover.json (1 item missing)" "handover says how much is missing"
cp handover.html first.html
"$ENVLOCK" handover "${full[@]}" -o handover.html 2>/dev/null
check_eq "$(cmp first.html handover.html && echo same)" "same" "same records, same bytes"
check_contains "$(cat handover.html)" "@media print" "the page prints well"
check_not_contains "$(cat handover.html)" "<link" "the page is self-contained"
for ext in md json; do
  run_cmd h "$ENVLOCK" handover --lock "$DATA/full/envlock.lock.json" --squashfs-result "$DATA/full/squashfs-result.json" -o "partial.$ext"
  check_eq "$(cat "partial.$ext")" "$(cat "$DATA/partial.$ext")" "golden partial .$ext"
done
run_cmd h "$ENVLOCK" handover --node node.json -o mine.md
check_eq "$h_rc" 0 "handover from this machine's facts"
check_contains "$(cat mine.md)" "| NVIDIA driver | **missing** |  |" "a missing driver stays missing"
# ---- no options: the usual files of this folder, said on stderr, into handover.md
cp -r "$DATA/full" usual
(cd usual && "$ENVLOCK" handover) >usual.out 2>usual.err
check_eq "$?" 0 "handover with no options: exit 0"
check_eq "$(cat usual/handover.md)" "$(cat "$DATA/full.md")" \
  "handover with no options: the usual files give the full record, in handover.md"
check_eq "$(cat usual.err)" "envlock: reading envlock.lock.json
envlock: reading provenance.json
envlock: reading build-result.json
envlock: reading node.json
envlock: reading previous.lock.json
envlock: reading rollback-report.json
envlock: reading squashfs-result.json
envlock: reading reports/*.json
envlock: wrote handover.md (1 item missing)" "handover with no options: says what it read and wrote"

# ---- from a folder below the project: the records above it; nowhere near a lock: an error
mkdir -p usual/sub/deeper
(cd usual/sub/deeper && "$ENVLOCK" handover) >below.out 2>below.err
check_eq "$?" 0 "handover from a folder below the project: exit 0"
check_eq "$(head -1 below.err)" "envlock: using ../../envlock.lock.json (found in $WORK/usual)" \
  "handover from below: says where it found the lock"
check_eq "$(tail -1 below.err)" "envlock: wrote ../../handover.md (1 item missing)" "handover from below: written beside the records"
check_eq "$(cat usual/handover.md)" "$(cat "$DATA/full.md")" "handover from below: the same record"
mkdir -p empty/.git
(cd empty && "$ENVLOCK" handover) >empty.out 2>empty.err
check_eq "$?:$(cat empty.err)" "2:envlock: error: no envlock.lock.json here or in a folder above: run 'envlock lock', or name the records (--lock FILE, --build-result FILE, ...)" \
  "handover with no lock anywhere: refused"
check_eq "$(ls -A empty)" ".git" "handover with no lock: nothing written"

run_cmd h "$ENVLOCK" handover -o handover.txt
check_eq "$h_rc" 2 "unknown extension exits 2"
check_eq "$h_err" "envlock: error: handover.txt: unknown extension '.txt'; use .md, .html or .json" "unknown extension message"
check_eq "$(ls handover.txt 2>/dev/null)" "" "nothing written on error"
finish
