# envlock node's health facts and `envlock node --check`'s health judgement, with the NVML stand-in
# (tests/standin/nvml/, built beside the unit tests) in place of libnvidia-ml.so.1 and a host tree
# (tests/data/node/health/) in place of /sys, /proc and /dev/kmsg: a healthy 8-GPU NVSwitch node,
# faults on it (exit 1, the rule's id, reason and drain line), the healthy H200 of the lab whose
# /dev/kmsg cannot be read but dmesg can, an NVML that does not load, and the lock's
# expect.host.health read from the lock; and a reader that is not root, to whom the kernel log is
# closed (its XID rule skipped with the reason, not failed).
. "$REPO/tests/e2e/lib.sh"
need_tools python3 setpriv
private_etc
[ -x "$ENVLOCK" ] || skip "no envlock binary at $ENVLOCK"
STANDIN=$(dirname "$ENVLOCK")/tests/standin/nvml/libnvidia-ml.so.1
[ -f "$STANDIN" ] || { fail "the NVML stand-in" "no $STANDIN (cmake --build build --target envlock_standin_nvml)"; finish; }
DATA=$REPO/tests/data/node/health
jq_py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# A lock that expects 8 GPUs and declares what a healthy node of this kind has.
python3 - "$REPO/tests/data/verify/lock.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["expect"]["host"] = {"health": {"pcie_width": 16, "nvlink_links": 18, "ib_ports": 4,
                                  "ib_link_layer": "InfiniBand", "tolerated_xids": [13]}}
json.dump(d, open("lock.json", "w"), indent=2, sort_keys=True)
d["expect"]["host"] = {}
d["expect"]["gpus"]["count"] = 0
json.dump(d, open("nothing.json", "w"), indent=2, sort_keys=True)
d["expect"]["host"] = {"health": {"pcie_wdth": 16}}
json.dump(d, open("misspelt.json", "w"), indent=2, sort_keys=True)
PY

# node NAME: a fresh copy of the node's tree and scenario in NAME/
# (root's, as a node's system files are, whoever owns the checkout)
node() {
  rm -rf "$1" && mkdir -p "$1" && cp -a "$DATA/$1/root" "$1/root" && cp "$DATA/$1/nvml.json" "$1/nvml.json"
  chown -R -h 0:0 "$1/root" && chmod -R go-w "$1/root"
}
# scenario NAME PYTHON: changes NAME/nvml.json (`s` is the scenario)
scenario() {
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); $2; json.dump(s, open(sys.argv[1], 'w'))" "$1/nvml.json"
}
# on NAME CMD...: CMD with NAME's tree and NVML
on() {
  local name=$1
  shift
  env ENVLOCK_NODE_ROOT="$WORK/$name/root" ENVLOCK_NVML="$STANDIN" ENVLOCK_NVML_SCENARIO="$WORK/$name/nvml.json" "$@"
}

# ---- the healthy NVSwitch node
node hgx
run_cmd c on hgx "$ENVLOCK" node --check --lock lock.json --no-dcgm
check_eq "$c_rc" 0 "node --check on the healthy node: exit 0"
check_contains "$c_out" "PASS  health.gpu.row_remap_pending" "each rule is a check"
check_contains "$c_out" "SKIP  health.gpu.processes" "processes are not judged without --idle"
check_contains "$c_out" "SKIP  health.dcgm.diag" "DCGM left out (--no-dcgm)"
check_contains "$c_out" "0 failed" "nothing fails"
run_cmd f on hgx "$ENVLOCK" node --format json --no-dcgm
check_eq "$(printf '%s' "$f_out" | python3 -c 'import json,sys; g=json.load(sys.stdin)["health"]["gpus"][3]; print(g["remapped_rows.pending"], g["pcie.slot.address"]["value"], g["fabric.state"]["value"])')" \
  "{'source': 'nvmlDeviceGetRemappedRows', 'value': False} 0000:5c:01.0 completed" \
  "the facts carry each health value with its source"
check_contains "$(on hgx "$ENVLOCK" node --no-dcgm)" "Health of GPU 7" "the text facts have a health section per GPU"

# ---- one fault at a time: exit 1, the rule's id, its reason and drain line
fault() { # NAME CHANGE ID DRAIN REASON
  local name=$1 change=$2 id=$3 drain=$4 reason=$5
  node hgx
  eval "$change"
  run_cmd c on hgx "$ENVLOCK" node --check --idle --lock lock.json --no-dcgm
  check_eq "$c_rc" 1 "$name: exit 1"
  check_contains "$c_out" "FAIL  $id" "$name: $id fails"
  check_contains "$c_out" "$reason" "$name: the reason"
  run_cmd j on hgx "$ENVLOCK" node --check --idle --lock lock.json --no-dcgm --format json
  check_eq "$(printf '%s' "$j_out" | python3 -c 'import json,sys; print([c["details"]["drain"] for c in json.load(sys.stdin)["checks"] if c["outcome"] == "fail"])')" \
    "['$drain']" "$name: the one failure's drain line"
}
fault "row remap pending" "scenario hgx 's[\"gpus\"][3][\"nvmlDeviceGetRemappedRows\"] = [0, 1, 1, 0]'" \
  health.gpu.row_remap_pending "health.gpu.row_remap_pending GPU 3: drain, reset the GPU" \
  "GPU 3: a row remap is pending (1 rows remapped for uncorrectable errors); drain, reset the GPU"
fault "XID 79" "printf '3,9,7201234567,-;NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.\n' >>hgx/root/dev/kmsg" \
  health.gpu.xid "health.gpu.xid GPU 2: drain, reboot" \
  "GPU 2: XID 79 (GPU has fallen off the bus) at 7201.2 s after boot; drain, reboot"
fault "PCIe x8" "scenario hgx 's[\"gpus\"][7][\"nvmlDeviceGetCurrPcieLinkWidth\"] = 8'" \
  health.pcie.width "health.pcie.width GPU 7: drain, reseat the GPU" "GPU 7: x8 of x16; drain, reseat the GPU"
fault "an IB port down" "printf '1: DOWN\n' >hgx/root/sys/class/infiniband/mlx5_2/ports/1/state; printf '2: Polling\n' >hgx/root/sys/class/infiniband/mlx5_2/ports/1/phys_state" \
  health.ib.port_down "health.ib.port_down mlx5_2/1: drain, reseat the cable" \
  "mlx5_2/1: state DOWN, Polling (3 of 4 expected active); drain, reseat the cable"
fault "a stray process" "scenario hgx 's[\"gpus\"][0][\"nvmlDeviceGetComputeRunningProcesses_v3\"] = [{\"pid\": 4242, \"used_mib\": 1024}]'; mkdir -p hgx/root/proc/4242; echo python3 >hgx/root/proc/4242/comm" \
  health.gpu.processes "health.gpu.processes GPU 0: drain, end the processes" \
  "GPU 0: 1 process: 4242 python3 (1024 MiB); drain, end the processes"
node hgx
printf '3,9,100000000,-;NVRM: Xid (PCI:0000:3a:00): 13, pid=1, name=a, Graphics Exception\n' >>hgx/root/dev/kmsg
run_cmd c on hgx "$ENVLOCK" node --check --lock lock.json --no-dcgm
check_eq "$c_rc" 0 "an XID the lock tolerates: exit 0"
check_contains "$c_out" "XID 13 tolerated (GPU 2)" "and it is reported"

# ---- the healthy H200 of the lab: /dev/kmsg cannot be read, dmesg can
node h200
mkdir -p bin && cp "$DATA/bin/dmesg" bin/
run_cmd h env PATH="$WORK/bin:$PATH" ENVLOCK_DMESG_LOG="$DATA/h200/dmesg.txt" ENVLOCK_NODE_ROOT="$WORK/h200/root" \
  ENVLOCK_NVML="$STANDIN" ENVLOCK_NVML_SCENARIO="$WORK/h200/nvml.json" "$ENVLOCK" node --check --idle --no-dcgm --lock lock.json
check_contains "$h_out" "FAIL  health.nvlink.down" "the 8-GPU lock's 18 NVLink links are not on a PCIe H200"
python3 -c 'import json; d=json.load(open("lock.json")); d["expect"]["gpus"]={"count": 1, "model": "NVIDIA H200"}; d["expect"]["host"]={"health": {}}; json.dump(d, open("h200.json", "w"))'
run_cmd h env PATH="$WORK/bin:$PATH" ENVLOCK_DMESG_LOG="$DATA/h200/dmesg.txt" ENVLOCK_NODE_ROOT="$WORK/h200/root" \
  ENVLOCK_NVML="$STANDIN" ENVLOCK_NVML_SCENARIO="$WORK/h200/nvml.json" "$ENVLOCK" node --check --idle --no-dcgm --lock h200.json
check_eq "$h_rc" 0 "the healthy H200 with the defaults: exit 0, no false failure"
check_contains "$h_out" "PASS  health.gpu.xid" "its XIDs come from dmesg"
check_contains "$h_out" "SKIP  health.fabric.state" "no NVLink fabric on a PCIe card"

# ---- NVML that does not load, where the lock expects GPUs
run_cmd n env ENVLOCK_NODE_ROOT="$WORK/hgx/root" ENVLOCK_NVML="$WORK/no-such-libnvidia-ml.so.1" "$ENVLOCK" node --check --lock lock.json --no-dcgm
check_eq "$n_rc" 1 "no NVML on a GPU node: exit 1"
check_contains "$n_out" "FAIL  health.gpu.nvml" "health.gpu.nvml fails"
check_contains "$n_out" "$WORK/no-such-libnvidia-ml.so.1 not found; drain" "with the reason"

# ---- not root: /dev/kmsg is closed (the tree's file, mode 600) and dmesg is refused (a stand-in
# answering as dmesg does under kernel.dmesg_restrict=1): nothing is known of the XIDs, and the
# node is not failed for it
test_user envlock-health >/dev/null
node hgx
chmod 600 hgx/root/dev/kmsg
mkdir -p denied-bin
printf '#!/bin/sh\necho "dmesg: read kernel buffer failed: Operation not permitted" >&2\nexit 1\n' >denied-bin/dmesg
chmod 755 denied-bin/dmesg "$WORK"
run_cmd u as_user envlock-health env PATH="$WORK/denied-bin:$PATH" ENVLOCK_NODE_ROOT="$WORK/hgx/root" \
  ENVLOCK_NVML="$STANDIN" ENVLOCK_NVML_SCENARIO="$WORK/hgx/nvml.json" "$ENVLOCK" node --check --no-dcgm --lock lock.json
check_eq "$u_rc" 0 "not root: exit 0"
check_contains "$u_out" "SKIP  health.gpu.xid" "the XID rule is skipped"
check_contains "$u_out" "the kernel log cannot be read without root: /dev/kmsg: Permission denied; dmesg: exit status 1 (dmesg: read kernel buffer failed: Operation not permitted)" \
  "with the reason"

# ---- XIDs count by their source (docs/manual/trust.md): the kernel's own records (facility 0,
# which no program's write to /dev/kmsg can have) whose message begins with the driver's prefix.
# Any user can have the kernel log a line holding the XID's text: a program of theirs crashing in
# a file named as one. Run as it was run where this host's kernel logs crashes (a real user, a
# real segfault, the record read back from /dev/kmsg); else the record as the kernel wrote it on
# the host where the attack was first run.
CRASH_NAME='NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.'
CRASH_RECORD='6,52311,1571466824,-;NVRM: Xid (PCI:[11150]: segfault at 0 ip 00005592eda2a139 sp 00007ffc21a2e7f0 error 6 in NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.[1139,5592eda2a000+1000] likely on CPU 1 (core 1, socket 0)'
crash_from=recorded
if [ -r /dev/kmsg ] && [ "$(cat /proc/sys/debug/exception-trace 2>/dev/null)" = 1 ] && command -v gcc >/dev/null; then
  test_user envlock-crash >/dev/null
  mkdir -p crash && printf 'int main(void) { volatile int *p = 0; *p = 1; return 0; }\n' >crash/crash.c
  chmod 755 "$WORK" crash
  if gcc -O0 -o "crash/$CRASH_NAME" crash/crash.c; then
    as_user envlock-crash "$WORK/crash/$CRASH_NAME" 2>/dev/null
    record=$(python3 - "$CRASH_NAME" <<'PY'
import os, sys
fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
last = ""
while True:
    try:
        rec = os.read(fd, 16384).decode("utf-8", "replace").rstrip("\n")
    except BlockingIOError:
        break
    except BrokenPipeError:
        continue
    if "segfault" in rec and sys.argv[1] in rec:
        last = rec.split("\n")[0]
print(last)
PY
)
    [ -n "$record" ] && CRASH_RECORD=$record && crash_from="this host's kernel"
  fi
fi
node hgx
printf '%s\n' "$CRASH_RECORD" >>hgx/root/dev/kmsg
run_cmd x on hgx "$ENVLOCK" node --check --idle --lock lock.json --no-dcgm
check_eq "$x_rc" 0 "a user's program crashing in a file named as an XID ($crash_from): exit 0"
check_contains "$x_out" "PASS  health.gpu.xid" "the crash record is no XID"
check_contains "$x_out" "no XID since boot (/dev/kmsg)" "and none is reported"
# Other ways to put the text into the kernel log, none of them the kernel's own XID.
node hgx
{
  # a program writing to /dev/kmsg: the kernel gives it facility user (1) whatever it writes
  printf '%s\n' '12,9001,7300000000,-;NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.'
  printf '%s\n' '8,9002,7300000001,-;NVRM: Xid (PCI:0000:3a:00): 48, DBE (Double Bit Error) ECC Error'
  # the kernel logging a program's name (cut to 15 bytes) or text of its choosing mid-message
  printf '%s\n' '6,9003,7300000002,-;NVRM: Xid (PCI (4242): drop_caches: 1'
  printf '%s\n' '4,9004,7300000003,-;audit: comm="x" NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.'
  # a record's continuation line, and lines that are no record
  printf '%s\n' ' NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.'
  printf '%s\n' 'x,9005,7300000004,-;NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.'
  printf '%s\n' 'NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.'
} >>hgx/root/dev/kmsg
run_cmd x on hgx "$ENVLOCK" node --check --idle --lock lock.json --no-dcgm
check_eq "$x_rc" 0 "user records, names and continuations holding an XID's text: exit 0"
check_contains "$x_out" "PASS  health.gpu.xid" "none of them is an XID"
# the dmesg path: dmesg --decode names each record's facility
node h200
cp "$DATA/h200/dmesg.txt" h200/dmesg.txt
printf '%s\n' 'user  :warn  : [ 7300.000000] NVRM: Xid (PCI:0000:00:06): 79, GPU has fallen off the bus.' \
  'kern  :info  : [ 7301.000000] NVRM: Xid (PCI:[4242]: segfault at 0 ip 0000 sp 0000 error 6 in NVRM: Xid (PCI:0000:00:06): 79, x[1139,5592eda2a000+1000]' >>h200/dmesg.txt
run_cmd h env PATH="$WORK/bin:$PATH" ENVLOCK_DMESG_LOG="$WORK/h200/dmesg.txt" ENVLOCK_NODE_ROOT="$WORK/h200/root" \
  ENVLOCK_NVML="$STANDIN" ENVLOCK_NVML_SCENARIO="$WORK/h200/nvml.json" "$ENVLOCK" node --check --idle --no-dcgm --lock h200.json
check_eq "$h_rc" 0 "dmesg: a user's line and a crash line holding an XID's text: exit 0"
printf '%s\n' 'kern  :err   : [ 7302.000000] NVRM: Xid (PCI:0000:00:06): 79, pid=0, GPU has fallen off the bus.' >>h200/dmesg.txt
run_cmd h env PATH="$WORK/bin:$PATH" ENVLOCK_DMESG_LOG="$WORK/h200/dmesg.txt" ENVLOCK_NODE_ROOT="$WORK/h200/root" \
  ENVLOCK_NVML="$STANDIN" ENVLOCK_NVML_SCENARIO="$WORK/h200/nvml.json" "$ENVLOCK" node --check --idle --no-dcgm --lock h200.json
check_eq "$h_rc" 1 "dmesg: the driver's own XID 79: exit 1"
check_contains "$h_out" "GPU 0: XID 79 (GPU has fallen off the bus) at 7302.0 s after boot; drain, reboot" "and it is the kernel's record that counts"

# ---- hostile input to a health fact is a failed rule, never "not judged" (exit 3)
# An XID whose text holds bytes that are not UTF-8 and a character cut by the length limits.
node hgx
python3 - hgx/root/dev/kmsg <<'PY'
import sys
with open(sys.argv[1], "ab") as f:
    f.write(b"3,9100,7400000000,-;NVRM: Xid (PCI:0000:3a:00): 999, " + b"A" * 79 + "\u00e9".encode() + b"\xff\xfe" + b"B" * 70 + "\u00e9\u00e9".encode() + b"\n")
PY
run_cmd x on hgx "$ENVLOCK" node --check --lock lock.json --no-dcgm --format json
check_eq "$x_rc" 1 "an XID text cut mid-character: exit 1, not 3"
check_eq "$(printf '%s' "$x_out" | python3 -c 'import json,sys; print([c["details"]["drain"] for c in json.load(sys.stdin)["checks"] if c["outcome"] == "fail"])')" \
  "['health.gpu.xid GPU 2: drain']" "the unknown XID fails its GPU"
# A process whose name is not UTF-8 (a real user's program named so), with a pending row remap.
test_user envlock-stray >/dev/null
mkdir -p stray && chmod 755 "$WORK" stray
cp /bin/sleep "stray/$(printf 'gpu\377\376job')" && cp /bin/sleep stray/envlock-verify && cp /bin/sleep stray/nv-fabricmanager && cp /bin/sleep stray/nvlsm
chown -R envlock-stray stray
# (setpriv itself in the background, so that $! is the user's process, not a subshell of root)
STRAY_ID=(--reuid="$(id -u envlock-stray)" --regid="$(id -g envlock-stray)" --init-groups)
setpriv "${STRAY_ID[@]}" "$WORK/stray/$(printf 'gpu\377\376job')" 300 &
BAD_NAME_PID=$!
setpriv "${STRAY_ID[@]}" "$WORK/stray/envlock-verify" 300 &
STRAY_VERIFY_PID=$!
setpriv "${STRAY_ID[@]}" "$WORK/stray/nv-fabricmanager" 300 &
FAKE_FM_PID=$!
setpriv "${STRAY_ID[@]}" "$WORK/stray/nvlsm" 300 &
FAKE_NVLSM_PID=$!
sleep 0.3
E2E_PIDS+=("$BAD_NAME_PID" "$STRAY_VERIFY_PID" "$FAKE_FM_PID" "$FAKE_NVLSM_PID")
# `live`: the NVSwitch node's tree with this host's real /proc, where the real processes are
live() {
  node hgx && rm -rf live && mv hgx live && rm -rf live/root/proc && ln -s /proc live/root/proc
  cp /bin/sleep live/root/usr/bin/nv-fabricmanager && chmod 755 live/root/usr/bin/nv-fabricmanager
}
live
scenario live "s[\"gpus\"][1][\"nvmlDeviceGetRemappedRows\"] = [0, 1, 1, 0]; s[\"gpus\"][0][\"nvmlDeviceGetComputeRunningProcesses_v3\"] = [{\"pid\": $BAD_NAME_PID, \"used_mib\": 512}]"
run_cmd p on live "$ENVLOCK" node --check --idle --lock lock.json --no-dcgm --format json
check_eq "$p_rc" 1 "a process name that is not UTF-8 on a node with a pending row remap: exit 1, not 3"
check_eq "$(printf '%s' "$p_out" | python3 -c 'import json,sys; print(sorted(c["id"] for c in json.load(sys.stdin)["checks"] if c["outcome"] == "fail"))')" \
  "['health.fabric.manager_down', 'health.gpu.processes', 'health.gpu.row_remap_pending']" \
  "the row remap, the process and the missing Fabric Manager all fail"
check_contains "$p_out" "$BAD_NAME_PID gpu\\\\xff\\\\xfejob (512 MiB)" "the name is shown with its bytes escaped"
check_eq "$(printf '%s' "$p_out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["health"]["gpus"][0]["processes"]["value"][0]["name"])')" \
  'gpu\xff\xfejob' "the facts carry the name escaped"
# NVML answering nonsense: 100,000 GPUs, text without its end, an error text that is not UTF-8,
# a process count beyond its list.
nonsense() { # NAME CHANGE RC REASON
  node hgx
  scenario hgx "$2"
  run_cmd n on hgx "$ENVLOCK" node --check --idle --lock nothing.json --no-dcgm
  check_eq "$n_rc" "$3" "$1: exit $3"
  check_contains "$n_out" "$4" "$1: the reason"
}
nonsense "NVML reports 100,000 GPUs" 's["count"] = 100000' 1 \
  "nvmlDeviceGetCount_v2: NVML reports 100000 GPUs, more than the 64 a node can hold; drain"
nonsense "a GPU name without its end, not UTF-8" 's["gpus"][2]["nvmlDeviceGetName"] = {"hex": "ff4e5649444941", "unterminated": True}' 0 \
  '2  "\\xffNVIDIAAAAAA'
nonsense "an NVML error text that is not UTF-8" 's["gpus"][5]["nvmlDeviceGetRemappedRows"] = {"rc": 777}' 1 \
  'GPU 5: cannot be read: nvmlDeviceGetRemappedRows: NVML error 777 (\xff\xfe not \xc3 text); drain'
nonsense "a process list NVML says holds 100,000" 's["gpus"][4]["nvmlDeviceGetComputeRunningProcesses_v3"] = {"claim": 100000}' 1 \
  'GPU 4: cannot be read: nvmlDeviceGetComputeRunningProcesses_v3: NVML reports 100000 processes for a list of 64 (at most 4096); drain'
# A hung NVML call that ignores SIGTERM: envlock's own deadline fails the GPU (or NVML), writes
# its output and exits 1 well before the prolog's timeout would.
hung() { # NAME CHANGE REASON
  node hgx
  scenario hgx "s[\"ignore_sigterm\"] = True; $2"
  rm -f hung.json
  run_cmd g on hgx timeout -k 5 60 "$ENVLOCK" node --check --idle --lock nothing.json --no-dcgm --nvml-timeout 2 -o hung.json
  check_eq "$g_rc" 1 "$1: exit 1 (not killed, not 3)"
  check_contains "$(python3 -c 'import json,sys; print([c["reason"] for c in json.load(open("hung.json"))["checks"] if c["id"] == "health.gpu.nvml"])' 2>&1)" "$3" "$1: the output is written and names the call"
}
hung "nvmlDeviceGetRemappedRows hangs on GPU 1" 's["hang"] = {"call": "nvmlDeviceGetRemappedRows", "gpu": 1}' \
  "GPU 1: nvmlDeviceGetRemappedRows did not answer within 2 s; drain"
hung "nvmlDeviceGetCount_v2 hangs" 's["hang"] = {"call": "nvmlDeviceGetCount_v2"}' \
  "nvmlDeviceGetCount_v2 did not answer within 2 s; drain"
hung "nvmlInit_v2 hangs" 's["hang"] = {"call": "nvmlInit_v2"}' "nvmlInit_v2 did not answer within 2 s; drain"
hung "nvmlShutdown hangs" 's["hang"] = {"call": "nvmlShutdown"}' "nvmlShutdown did not answer within 2 s; drain"

# ---- --idle: a stray process is any process on a GPU the check did not start, whatever its name
live
scenario live "s[\"gpus\"][0][\"nvmlDeviceGetComputeRunningProcesses_v3\"] = [{\"pid\": $STRAY_VERIFY_PID, \"used_mib\": 100}]"
run_cmd s on live "$ENVLOCK" node --check --idle --lock lock.json --no-dcgm --own-pid "$$"
check_contains "$s_out" "GPU 0: 1 process: $STRAY_VERIFY_PID envlock-verify (100 MiB); drain, end the processes" \
  "a user's process named envlock-verify is stray (even below the caller's --own-pid)"
# the check's own: root's, descended from the --own-pid the prolog gives (timeout, then the program)
timeout 300 sleep 300 &
OWN_PARENT=$!
E2E_PIDS+=("$OWN_PARENT")
sleep 0.5
OWN_CHILD=$(pgrep -P "$OWN_PARENT" | head -1)
sleep 300 &
ROOT_OTHER=$!
E2E_PIDS+=("$ROOT_OTHER")
scenario live "s[\"gpus\"][0][\"nvmlDeviceGetComputeRunningProcesses_v3\"] = [{\"pid\": $OWN_CHILD, \"used_mib\": 100}]"
run_cmd s on live "$ENVLOCK" node --check --idle --lock lock.json --no-dcgm --own-pid "$OWN_PARENT"
check_contains "$s_out" "PASS  health.gpu.processes" "root's process below --own-pid is the check's own"
scenario live "s[\"gpus\"][0][\"nvmlDeviceGetComputeRunningProcesses_v3\"] = [{\"pid\": $ROOT_OTHER, \"used_mib\": 100}]"
run_cmd s on live "$ENVLOCK" node --check --idle --lock lock.json --no-dcgm --own-pid "$OWN_PARENT"
check_contains "$s_out" "GPU 0: 1 process: $ROOT_OTHER sleep (100 MiB)" "root's process elsewhere is stray"
scenario live "s[\"gpus\"][0][\"nvmlDeviceGetComputeRunningProcesses_v3\"] = [{\"pid\": $STRAY_VERIFY_PID, \"used_mib\": 100}]"
run_cmd s on live "$ENVLOCK" node --check --idle --lock lock.json --no-dcgm --own-pid "$STRAY_VERIFY_PID"
check_contains "$s_out" "FAIL  health.gpu.processes" "a user's process is never the check's own, whatever PID is named"

# ---- services: root's process running the installed binary, never a process of that name
python3 -c 'import json; d=json.load(open("lock.json")); d["expect"]["host"]["health"]["nvlsm"]=True; json.dump(d, open("nvlsm.json", "w"))'
live
run_cmd v on live "$ENVLOCK" node --check --lock nvlsm.json --no-dcgm
check_contains "$v_out" "FAIL  health.fabric.manager_down" "a user's nv-fabricmanager is not Fabric Manager"
check_contains "$v_out" "no process of root runs the installed nv-fabricmanager; drain, start Fabric Manager" "and says what is missing"
check_contains "$v_out" "no nvlsm installed" "a user's nvlsm is not NVLSM (none is installed)"
chmod 755 live live/root live/root/usr live/root/usr/bin
setpriv "${STRAY_ID[@]}" "$WORK/live/root/usr/bin/nv-fabricmanager" 300 &
E2E_PIDS+=($!)
sleep 0.2
run_cmd v on live "$ENVLOCK" node --check --lock lock.json --no-dcgm
check_contains "$v_out" "FAIL  health.fabric.manager_down" "a user running the installed binary is not Fabric Manager"
cp /bin/sleep "$WORK/root-copy-nv-fabricmanager"
"$WORK/root-copy-nv-fabricmanager" 300 &
E2E_PIDS+=($!)
run_cmd v on live "$ENVLOCK" node --check --lock lock.json --no-dcgm
check_contains "$v_out" "FAIL  health.fabric.manager_down" "root running another copy of the program is not Fabric Manager"
live/root/usr/bin/nv-fabricmanager 300 &
REAL_FM=$!
E2E_PIDS+=("$REAL_FM")
sleep 0.2
run_cmd v on live "$ENVLOCK" node --check --lock lock.json --no-dcgm
check_contains "$v_out" "PASS  health.fabric.manager_down" "root running the installed binary is Fabric Manager"
check_contains "$v_out" "running (pid $REAL_FM)" "its process is named"

# ---- root that cannot read the kernel log (no CAP_SYSLOG; here: no right to the tree's file):
# the XID rule fails, it is not skipped as for a reader who is not root
node hgx
chown envlock-stray hgx/root/dev/kmsg && chmod 600 hgx/root/dev/kmsg
run_cmd r on hgx env PATH="$WORK/denied-bin:$PATH" setpriv --bounding-set=-dac_override,-dac_read_search,-syslog \
  env ENVLOCK_NODE_ROOT="$WORK/hgx/root" ENVLOCK_NVML="$STANDIN" ENVLOCK_NVML_SCENARIO="$WORK/hgx/nvml.json" "$ENVLOCK" node --check --no-dcgm --lock lock.json
check_eq "$r_rc" 1 "root refused the kernel log: exit 1"
check_contains "$r_out" "FAIL  health.gpu.xid" "the XID rule fails"
check_contains "$r_out" "cannot be read: /dev/kmsg: Permission denied; dmesg: exit status 1 (dmesg: read kernel buffer failed: Operation not permitted); drain" \
  "with the reason"

# ---- an InfiniBand rate that is not a finite number fails ib.rate
for rate in 'nan Gb/sec (4X EDR)' 'inf Gb/sec (4X EDR)' '-400 Gb/sec (4X NDR)' '0x190 Gb/sec (4X NDR)' '1e3 Gb/sec (4X NDR)'; do
  node hgx
  printf '%s\n' "$rate" >hgx/root/sys/class/infiniband/mlx5_1/ports/1/rate
  run_cmd i on hgx "$ENVLOCK" node --check --lock lock.json --no-dcgm
  check_eq "$i_rc" 1 "IB rate '$rate': exit 1"
  check_contains "$i_out" "mlx5_1/1: cannot be read: rate '$rate'; drain" "IB rate '$rate': fails ib.rate"
done

# ---- health is judged wherever there is a GPU: a lock whose GPU expectation is in expect.host,
# and one that says nothing of GPUs, fail a node whose GPU 1 has a fault
python3 -c 'import json; d=json.load(open("nothing.json")); d["expect"]["host"]={"gpu.count": 8, "gpu.model": "NVIDIA H100 80GB HBM3"}; json.dump(d, open("hostgpus.json", "w"))'
for lockname in hostgpus nothing; do
  for f in 'row_remap_pending:s["gpus"][1]["nvmlDeviceGetRemappedRows"] = [0, 1, 1, 0]' \
    'ecc_uncorrected:s["gpus"][1]["nvmlDeviceGetTotalEccErrors"]["uncorrected_volatile"] = 2' \
    'hw_slowdown:s["gpus"][1]["nvmlDeviceGetCurrentClocksEventReasons"] = 8'; do
    node hgx
    scenario hgx "${f#*:}"
    run_cmd w on hgx "$ENVLOCK" node --check --lock "$lockname.json" --no-dcgm
    check_eq "$w_rc" 1 "$lockname.json, ${f%%:*} on GPU 1: exit 1"
    check_contains "$w_out" "FAIL  health.gpu.${f%%:*}" "$lockname.json: health.gpu.${f%%:*} fails"
  done
done
node hgx
run_cmd w on hgx "$ENVLOCK" node --check --lock hostgpus.json --no-dcgm
check_eq "$w_rc" 0 "expect.host's GPUs on the healthy node: exit 0"
run_cmd w env ENVLOCK_NODE_ROOT="$WORK/hgx/root" ENVLOCK_NVML="$WORK/no-such-libnvidia-ml.so.1" "$ENVLOCK" node --check --lock hostgpus.json --no-dcgm
check_contains "$w_out" "FAIL  health.gpu.nvml" "expect.host's GPUs with no NVML: health.gpu.nvml fails"

# ---- the lock
node hgx
run_cmd e on hgx "$ENVLOCK" node --check --lock nothing.json --no-dcgm
check_eq "$e_rc" 0 "a lock that expects neither host facts nor GPUs: the GPUs' health is judged"
check_contains "$e_out" "PASS  health.gpu.row_remap_pending" "with the defaults"
run_cmd m "$ENVLOCK" node --check --lock misspelt.json
check_eq "$m_rc" 2 "a misspelt health key in the lock: exit 2"
check_contains "$m_err" "expect.host.health: unknown key 'pcie_wdth'; did you mean 'pcie_width'?" "and says which"
finish
