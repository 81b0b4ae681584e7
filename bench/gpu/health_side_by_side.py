"""Every health value `envlock node` read beside what `nvidia-smi -q` (and `nvidia-smi nvlink -s`,
dmesg, /proc, sysfs) says on the same machine, one line each: KEY | envlock's value (source) |
the reference's. Usage: health_side_by_side.py FACTS.json NVIDIA-SMI-Q.txt NVLINK.txt XIDS.txt"""
import json
import os
import re
import subprocess
import sys


def parse_smi(text):
    """nvidia-smi -q as {path: value}: "GPU 00000000:00:06.0/ECC Mode/Current" -> "Enabled"."""
    out, stack = {}, []
    for line in text.splitlines():
        if not line.strip() or line.startswith("="):
            continue
        indent = len(line) - len(line.lstrip(" "))
        key, _, value = line.strip().partition(":")
        key = key.strip()
        if line.strip().startswith("GPU 0") and indent == 0:
            stack = [(0, line.strip())]
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = "/".join([s for _, s in stack] + [key])
        if value.strip():
            out[path] = value.strip()
        else:
            stack.append((indent, key))
    return out


def smi(values, gpu, *paths):
    found = []
    for p in paths:
        for key, value in values.items():
            if key.startswith("GPU " + gpu) and key.endswith("/" + p):
                found.append(f"{p}: {value}")
    return "; ".join(found) or "(not in nvidia-smi -q)"


def shown(fact):
    if fact is None:
        return "(not reported)"
    if not isinstance(fact, dict):
        return str(fact)
    if "skipped" in fact:
        return "skipped: " + fact["skipped"]
    if fact.get("value") is None:
        return ("not supported: " if fact.get("not_supported") else "missing: ") + \
            str(fact.get("missing", fact.get("skipped", "")))
    return f"{json.dumps(fact['value'])} ({fact.get('source', '')})"


def main():
    facts = json.load(open(sys.argv[1]))
    values = parse_smi(open(sys.argv[2]).read())
    nvlink = open(sys.argv[3]).read().strip()
    xids = open(sys.argv[4]).read().strip()
    rows = [
        ("pci.bus_id", ["Bus Id"]),
        ("ecc.mode.current", ["ECC Mode/Current"]),
        ("ecc.mode.pending", ["ECC Mode/Pending"]),
        ("ecc.corrected.volatile", ["Volatile/SRAM Correctable", "Volatile/DRAM Correctable"]),
        ("ecc.uncorrected.volatile", ["Volatile/SRAM Uncorrectable Parity",
                                      "Volatile/SRAM Uncorrectable SEC-DED",
                                      "Volatile/DRAM Uncorrectable"]),
        ("ecc.corrected.aggregate", ["Aggregate/SRAM Correctable", "Aggregate/DRAM Correctable"]),
        ("ecc.uncorrected.aggregate", ["Aggregate/SRAM Uncorrectable Parity",
                                       "Aggregate/SRAM Uncorrectable SEC-DED",
                                       "Aggregate/DRAM Uncorrectable"]),
        ("remapped_rows.correctable", ["Remapped Rows/Correctable Error"]),
        ("remapped_rows.uncorrectable", ["Remapped Rows/Uncorrectable Error"]),
        ("remapped_rows.pending", ["Remapped Rows/Pending"]),
        ("remapped_rows.failure", ["Remapped Rows/Remapping Failure Occurred"]),
        ("retired_pages.single_bit", ["Retired Pages/Single Bit ECC"]),
        ("retired_pages.double_bit", ["Retired Pages/Double Bit ECC"]),
        ("retired_pages.pending", ["Retired Pages/Pending Page Blacklist"]),
        ("clocks.event_reasons", ["Clocks Event Reasons/Idle", "Clocks Event Reasons/HW Slowdown",
                                  "Clocks Event Reasons/HW Thermal Slowdown",
                                  "Clocks Event Reasons/HW Power Brake Slowdown",
                                  "Clocks Event Reasons/SW Thermal Slowdown",
                                  "Clocks Event Reasons/Sync Boost"]),
        ("clocks.event_reasons.active", []),
        ("temperature_c", ["GPU Current Temp"]),
        ("temperature.slowdown_c", ["GPU Slowdown T.Limit Temp", "GPU Slowdown Temp"]),
        ("temperature.shutdown_c", ["GPU Shutdown T.Limit Temp", "GPU Shutdown Temp"]),
        ("power.draw_w", ["GPU Power Readings/Instantaneous Power Draw",
                          "GPU Power Readings/Average Power Draw"]),
        ("power.limit_w", ["GPU Power Readings/Current Power Limit"]),
        ("pcie.gen.current", ["PCIe Generation/Current", "PCIe Generation/Device Current"]),
        ("pcie.gen.max", ["PCIe Generation/Max", "PCIe Generation/Host Max"]),
        ("pcie.gen.gpu_max", ["PCIe Generation/Device Max"]),
        ("pcie.width.current", ["Link Width/Current"]),
        ("pcie.width.max", ["Link Width/Max"]),
        ("pcie.replays", ["Replays Since Reset"]),
        ("pcie.sysfs.gen.current", []), ("pcie.sysfs.width.current", []),
        ("pcie.sysfs.gen.max", []), ("pcie.sysfs.width.max", []),
        ("pcie.slot.address", []), ("pcie.slot.gen.max", []), ("pcie.slot.width.max", []),
        ("nvlink.links", []),
        ("fabric.state", ["Fabric/State"]), ("fabric.status", ["Fabric/Status"]),
        ("fabric.clique", ["Fabric/CliqueId"]), ("fabric.cluster_uuid", ["Fabric/ClusterUUID"]),
        ("fabric.health_summary", ["Health/Summary"]),
        ("persistence", ["Persistence Mode"]),
        ("mig.current", ["MIG Mode/Current"]), ("mig.pending", ["MIG Mode/Pending"]),
        ("compute_mode", ["Compute Mode"]),
        ("processes", ["Processes"]),
        ("inforom", ["Inforom Version/Image Version"]),
    ]
    inventory = {g.get("index"): g for g in facts.get("gpus", [])}
    for gpu in facts.get("health", {}).get("gpus", []):
        bus = (gpu.get("pci.bus_id") or {}).get("value") or ""
        print(f"== GPU {gpu.get('index')} {bus} (lost: {gpu.get('lost')})")
        for key, paths in rows:
            if key == "nvlink.links":
                reference = "nvidia-smi nvlink -s: " + (nvlink.replace("\n", " | ")[:300] or "(nothing)")
            elif key.startswith("pcie.sysfs.") or key.startswith("pcie.slot."):
                reference = "(sysfs: see below)"
            elif not paths:
                reference = ""
            else:
                reference = smi(values, bus, *paths)
            print(f"  {key:30} envlock: {shown(gpu.get(key)):60} nvidia-smi -q: {reference}")
        vbios = inventory.get(gpu.get("index"), {}).get("vbios")
        print(f"  {'vbios':30} envlock: {json.dumps(vbios):60} nvidia-smi -q: {smi(values, bus, 'VBIOS Version')}")
        name = bus[-12:].lower() if bus else ""
        for f in ("current_link_speed", "current_link_width", "max_link_speed", "max_link_width"):
            path = f"/sys/bus/pci/devices/{name}/{f}"
            if os.path.exists(path):
                print(f"  {'sysfs ' + f:30} {open(path).read().strip()}")
    host = facts.get("health", {}).get("host", {})
    print("== host")
    print(f"  {'nvml':30} envlock: {shown(facts.get('health', {}).get('nvml'))}")
    print(f"  {'xids':30} envlock: {shown(host.get('xids')):60} dmesg | grep -c 'NVRM: Xid': {xids}")
    for key, program in (("fabric_manager", "nv-fabricmanager"), ("nvlsm", "nvlsm")):
        ps = subprocess.run(["pgrep", "-a", program[:15]], capture_output=True, text=True).stdout.strip()
        print(f"  {key:30} envlock: {shown(host.get(key)):60} pgrep -a {program[:15]}: {ps or '(none)'}")
    ib = subprocess.run("cat /sys/class/infiniband/*/ports/*/state 2>/dev/null | tr '\\n' ' '",
                        shell=True, capture_output=True, text=True).stdout.strip()
    print(f"  {'ib.ports':30} envlock: {shown(host.get('ib.ports'))[:60]:60} sysfs states: {ib or '(no /sys/class/infiniband)'}")
    lsmod = subprocess.run("lsmod 2>/dev/null | grep -c '^nvidia_peermem'", shell=True,
                           capture_output=True, text=True).stdout.strip()
    print(f"  {'nvidia_peermem':30} envlock: {shown(host.get('nvidia_peermem')):60} lsmod lines: {lsmod}")
    print(f"  {'dcgm':30} envlock: {shown(host.get('dcgm'))[:200]}")
    kmsg = "readable" if os.access("/dev/kmsg", os.R_OK) else "not readable"
    print(f"  {'/dev/kmsg':30} {kmsg} by this user (uid {os.getuid()})")


main()
