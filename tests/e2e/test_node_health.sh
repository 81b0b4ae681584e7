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
node() {
  rm -rf "$1" && mkdir -p "$1" && cp -a "$DATA/$1/root" "$1/root" && cp "$DATA/$1/nvml.json" "$1/nvml.json"
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

# ---- the lock
run_cmd e "$ENVLOCK" node --check --lock nothing.json
check_eq "$e_rc:$e_err" "2:envlock: error: nothing.json: expect.host: empty; nothing to check" \
  "a lock that expects neither host facts nor GPUs: nothing to check"
run_cmd m "$ENVLOCK" node --check --lock misspelt.json
check_eq "$m_rc" 2 "a misspelt health key in the lock: exit 2"
check_contains "$m_err" "expect.host.health: unknown key 'pcie_wdth'; did you mean 'pcie_width'?" "and says which"
finish
