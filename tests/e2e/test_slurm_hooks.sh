#!/usr/bin/env bash
# share/slurm/envlock-prolog and envlock-healthcheck run by Slurm itself: the four-node test
# cluster's slurm.conf names them (Prolog=, PrologFlags=Alloc, HealthCheckProgram=,
# HealthCheckInterval=, SchedulerParameters=nohold_on_prolog_fail), through the two-line wrappers
# a site writes to set ENVLOCK_LOCK, ENVLOCK_BIN and ENVLOCK_RESULTS. The lock expects this host's OS; node3 is made to
# differ the way a real node would, by another /etc/os-release bind-mounted in node3's own mount
# namespace (lib/slurm.sh gives each slurmd one). The prolog drains node3 with envlock's reason,
# the job that landed there runs elsewhere, passing nodes run jobs; the health check drains a
# failing node and leaves an operator's drain alone; a repaired node's passing health check is
# folded by `fleet verify --report-only` and resumed by `fleet drain-list --apply`. The prolog also
# applies the importer's policy to the job's container image, which Slurm gives it as
# SPANK__SLURM_SPANK_OPTION_pyxis_container_image: a real non-root user's jobs (srun with the SPANK
# job environment Pyxis's --container-image makes: a stand-in SPANK plugin named pyxis declares the
# option, so Slurm itself builds the prolog's environment) are refused, with the reason, without
# draining.
. "$REPO/tests/e2e/lib.sh"
need_tools python3 nsenter timeout awk setpriv useradd gcc sha256sum
[ -f /usr/include/slurm/spank.h ] || skip "missing slurm/spank.h (libslurm-dev; scripts/install-deps.sh installs it)"
private_etc
trusted_work
[ -x "$ENVLOCK" ] || skip "no envlock binary at $ENVLOCK"
[ -x "$ENVLOCK_VERIFY" ] || skip "no envlock-verify binary at $ENVLOCK_VERIFY"
mkdir -p "$WORK/bin" "$WORK/hooks" "$WORK/results"
ln -s "$ENVLOCK" "$WORK/bin/envlock"
ln -s "$ENVLOCK_VERIFY" "$WORK/bin/envlock-verify"
ln -s "$(dirname "$ENVLOCK")/envlock-importer" "$WORK/bin/envlock-importer"
HOOK_RESULTS=$WORK/results/hooks

# The lock: this host's OS in expect.host, no GPU expected (the test nodes have none), and the
# node's health judged with the defaults (nothing applies on a node without GPUs, until one is
# given an NVML stand-in below).
OS=$("$ENVLOCK" node --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["facts"]["os"]["value"])')
python3 - "$REPO/tests/data/verify/lock.json" "$WORK/lock.json" "$OS" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["expect"]["host"] = {"os": sys.argv[3], "health": {}}
d["expect"]["gpus"] = {"count": 0, "model": ""}
json.dump(d, open(sys.argv[2], "w"), indent=2, sort_keys=True)
PY
for hook in prolog healthcheck; do
  cat >"$WORK/hooks/$hook" <<SH
#!/bin/sh
export ENVLOCK_LOCK=$WORK/lock.json ENVLOCK_BIN=$WORK/bin ENVLOCK_RESULTS=$HOOK_RESULTS SLURM_CONF=$WORK/slurm/slurm.conf
# A node the test makes unhealthy reads an NVML stand-in and a host tree (ENVLOCK_NVML, ...).
[ -f "$WORK/health/\$SLURMD_NODENAME.env" ] && . "$WORK/health/\$SLURMD_NODENAME.env"
exec $REPO/share/slurm/envlock-$hook
SH
  chmod +x "$WORK/hooks/$hook"
done
# The options as Pyxis declares them (plugin pyxis, options container-image and container-name, one
# argument each), and nothing else: Slurm turns their values into
# SPANK__SLURM_SPANK_OPTION_pyxis_container_image and ..._container_name for the prolog.
cat >"$WORK/pyxis-option.c" <<'C'
#include <stddef.h>
#include <slurm/spank.h>
SPANK_PLUGIN(pyxis, 1);
static int image_option(int val, const char *optarg, int remote) {
  (void)val, (void)optarg, (void)remote;
  return 0;
}
struct spank_option spank_options[] = {
    {"container-image", "IMAGE", "the container image (a stand-in for Pyxis's option)", 1, 0,
     image_option},
    {"container-name", "NAME", "the container name (a stand-in for Pyxis's option)", 1, 0,
     image_option},
    SPANK_OPTIONS_TABLE_END};
int slurm_spank_init(spank_t sp, int ac, char **av) {
  (void)sp, (void)ac, (void)av;
  return 0;
}
C
gcc -shared -fPIC -o "$WORK/pyxis-option.so" "$WORK/pyxis-option.c" || { fail "build the SPANK stand-in" "gcc"; finish; }
echo "required $WORK/pyxis-option.so" >"$WORK/plugstack.conf"
export SLURM_EXTRA_CONF="PlugStackConfig=$WORK/plugstack.conf
Prolog=$WORK/hooks/prolog
PrologFlags=Alloc
HealthCheckProgram=$WORK/hooks/healthcheck
HealthCheckInterval=3600
SchedulerParameters=nohold_on_prolog_fail"
# A requeued job waits cred_expire seconds (120 by default) before it may start again.
export SLURM_AUTHINFO_EXTRA=cred_expire=10
mkdir -p "$WORK/images"
cat >/etc/envlock/importer.yaml <<Y
locks: [$WORK/lock.json]
cache: $WORK/importer-cache
sqsh_dirs: [$WORK/images]
log: $WORK/audit.log
Y
mkdir -p "$WORK/importer-cache" && chmod 1777 "$WORK/importer-cache"
: >"$WORK/audit.log" && chmod 644 "$WORK/audit.log"
U1=$(test_user envlock-u1)
slurm_start
ok "slurm cluster with the envlock prolog and health check: 4 idle nodes"

# ---- the job's container image, refused by the prolog under policy refuse (the node stays up)
image_job() { # NAME [IMAGE]: a job of envlock-u1 on node1, with IMAGE as its container image
  as_user envlock-u1 srun -N1 -w node1 --job-name="$1" ${2:+--container-image="$2"} /bin/echo "ran $1"
}
job_of() { squeue -h -t all -n "$1" -o %i | head -1; }
cp /bin/true "$WORK/stray.sqsh"
run_cmd j image_job stray "$WORK/stray.sqsh"
check_ne "$j_rc" 0 "a job whose .sqsh lies outside sqsh_dirs does not run"
check_not_contains "$j_out" "ran stray" "its command never ran"
J=$(job_of stray)
REASON="envlock: job $J refused on node1: $WORK/stray.sqsh: a .sqsh outside the sqsh_dirs ($WORK/images) is pinned by no lock that can be checked (1 lock read from $WORK/lock.json); policy 'refuse' (/etc/envlock/importer.yaml (default)) refuses it"
check_contains "$j_err" "$REASON" "the user sees the reason where srun prints Slurm's messages"
check_contains "$(scontrol show job "$J")" "AdminComment=$REASON" "scontrol show job shows it"
check_eq "$(sinfo -h -N -n node1 -o %T)" "idle" "node1 is not drained: the job is wrong, not the node"
run_cmd j image_job unpinned "docker://registry.example.invalid#other/image:v1"
check_not_contains "$j_out" "ran unpinned" "a job whose image no lock pins does not run"
check_contains "$(scontrol show job "$(job_of unpinned)")" "registry.example.invalid/other/image:v1 is pinned by no lock" "its reason names the image"
run_cmd j image_job pinned "registry.example.invalid#nvidia/pytorch:26.06-py3"
check_eq "$j_rc:$j_out" "0:ran pinned" "a job whose image the lock pins runs (Pyxis's form without docker://)"
run_cmd j image_job plain
check_eq "$j_out" "ran plain" "a job without a container image is not the importer's business"
check_eq "$(python3 -c 'import json,sys
print(sorted((e["command"], e["outcome"], e["uid"]) for e in map(json.loads, open(sys.argv[1])) if e["command"] != "scan"))' "$WORK/audit.log")" \
  "[('check', 'ok', 0), ('check', 'refused', 0), ('check', 'refused', 0)]" "each check is on the audit log, made by root"
check_eq "$(sinfo -h -N -n node1 -o %T)" "idle" "node1 is still idle"

# ---- issue 33: a .sqsh path the check followed and the user could swap; a named container
# A pinned .sqsh with its record, root's, in sqsh_dirs: the control, which runs.
mkdir -p "$WORK/images/pt"
cp /bin/true "$WORK/images/pt/pt.sqsh"
python3 - "$REPO/docs/formats/squashfs-result.md" "$(sha256sum <"$WORK/images/pt/pt.sqsh" | cut -c1-64)" \
  "$(stat -c %s "$WORK/images/pt/pt.sqsh")" >"$WORK/pt-result.json" <<'PY2'
import json, re, sys
d = json.loads(re.search(r"```json\n(.*?)\n```", open(sys.argv[1]).read(), re.S).group(1))
m = "sha256:" + "b" * 64
d["image"].update(manifest_digest=m, reference="registry.example.invalid/nvidia/pytorch@" + m)
d["sqsh"].update(file="pt.sqsh", sha256=sys.argv[2], size=int(sys.argv[3]))
print(json.dumps(d))
PY2
"$ENVLOCK_WRITE_RECORD" squashfs-result <"$WORK/pt-result.json" >"$WORK/images/pt/pt.squashfs-result.json" ||
  fail "write the record" "$ENVLOCK_WRITE_RECORD"
run_cmd j image_job genuine "$WORK/images/pt/pt.sqsh"
check_eq "$j_rc:$j_out" "0:ran genuine" "a pinned .sqsh on root's path runs"
# The attack: the user's own link to it, which the user can point elsewhere before Pyxis opens it.
mkdir -p "$WORK/u1" && chown envlock-u1 "$WORK/u1"
as_user envlock-u1 ln -s "$WORK/images/pt/pt.sqsh" "$WORK/u1/img.sqsh"
run_cmd j image_job linked "$WORK/u1/img.sqsh"
check_not_contains "$j_out" "ran linked" "a job through the user's own link does not run"
check_contains "$(scontrol show job "$(job_of linked)")" "$WORK/u1/img.sqsh: not a path only root can change ($WORK/u1: owned by uid $U1, not root)" "its reason says why"
TMPLINK=$(as_user envlock-u1 mktemp -u /tmp/envlock-u1.XXXXXX.sqsh)
as_user envlock-u1 ln -s "$WORK/images/pt/pt.sqsh" "$TMPLINK"
run_cmd j image_job sticky "$TMPLINK"
check_not_contains "$j_out" "ran sticky" "nor through a link in a sticky folder like /tmp"
check_contains "$(scontrol show job "$(job_of sticky)")" "$TMPLINK: not a path only root can change (/tmp: writable by others (mode 1777))" "its reason names the sticky folder"
rm -f "$TMPLINK"
# --container-name: Pyxis runs an existing container as it is, without calling the importer.
name_job() { # NAME CONTAINER [IMAGE]
  as_user envlock-u1 srun -N1 -w node1 --job-name="$1" --container-name="$2" ${3:+--container-image="$3"} /bin/echo "ran $1"
}
PINNED="registry.example.invalid#nvidia/pytorch:26.06-py3"
run_cmd j name_job named mine "$PINNED"
check_not_contains "$j_out" "ran named" "a pinned image with --container-name=mine does not run"
check_contains "$(scontrol show job "$(job_of named)")" "--container-name=mine: an existing container mine is run as it is instead of docker://$PINNED (Pyxis skips the import)" "its reason says the container would stand in for the image"
run_cmd j name_job nameonly mine
check_not_contains "$j_out" "ran nameonly" "--container-name alone does not run"
check_contains "$(scontrol show job "$(job_of nameonly)")" "--container-name=mine without --container-image" "its reason says so"
run_cmd j name_job created mine:create "$PINNED"
check_eq "$j_rc:$j_out" "0:ran created" "NAME:create with a pinned image runs: Pyxis makes the container from it"
check_eq "$(python3 -c 'import json,sys
print(sorted({e["pin"]["role"] for e in map(json.loads, open(sys.argv[1])) if e["command"] == "check" and e["outcome"] == "ok"}))' "$WORK/audit.log")" \
  "['base_image']" "every check that let a job through names its pin"
check_eq "$(sinfo -h -N -n node1 -o %T)" "idle" "node1 is not drained for a user's refused job"

# on_node NODE CMD...: CMD in NODE's mount namespace, as a technician logged in to NODE.
on_node() {
  local node=$1 pid
  shift
  pid=$(pgrep -f "^slurmd -D -N $node\$" | head -1)
  nsenter --mount --target "$pid" "$@"
}
printf 'PRETTY_NAME="Debian GNU/Linux 11 (bullseye)"\nNAME="Debian GNU/Linux"\nVERSION_ID="11"\nID=debian\n' >"$WORK/os-release-old"
break_node() { on_node "$1" mount --bind "$WORK/os-release-old" /etc/os-release; }
repair_node() { on_node "$1" umount /etc/os-release; }
reason_of() { sinfo -h -N -n "$1" -o '%E'; }
state_of() { sinfo -h -N -n "$1" -o '%T'; }

# ---- Slurm ran the health check when each slurmd started: every node passed
for n in 1 2 3 4; do
  check_eq "$(cat "$HOOK_RESULTS/nodes/node$n.rc" 2>/dev/null)" 0 "node$n: the startup health check passed"
done
check_contains "$(cat "$HOOK_RESULTS/nodes/node1.host.json")" "\"id\": \"host.os\"" "its host check report is in the results folder"

# ---- node3 differs: the prolog drains it with envlock's reason, its job runs elsewhere
break_node node3
check_contains "$(on_node node3 "$ENVLOCK" node --check --lock "$WORK/lock.json")" "FAIL  host.os" "node3 now fails expect.host"
jobs=()
for i in 1 2 3 4; do
  jobs+=("$(sbatch --parsable --exclusive -N1 -o "$WORK/job$i.out" --wrap 'echo "ran on $SLURMD_NODENAME"; sleep 2')")
done
all_done() { [ -z "$(squeue -h -j "$(IFS=,; echo "${jobs[*]}")" 2>/dev/null)" ]; }
wait_until 600 all_done || fail "jobs finished" "still queued: $(squeue -h)"
check_eq "$(state_of node3)" "drained" "node3 is drained"
check_eq "$(reason_of node3)" "envlock: prolog: host.os failed" "sinfo shows envlock's reason"
check_contains "$(sinfo -R -h -o '%E|%N')" "envlock: prolog: host.os failed|node3" "sinfo -R lists it"
ran=$(cat "$WORK"/job?.out | grep -c '^ran on node[124]$')
check_eq "$ran" 4 "all four jobs ran, on node1, node2 and node4 only"
requeued=0
for j in "${jobs[@]}"; do
  s=$(scontrol show job -o "$j")
  [[ $s == *"JobState=COMPLETED"* ]] || fail "job $j completed" "$s"
  [[ $s == *"Restarts=1"* ]] && requeued=$((requeued + 1))
done
check_eq "$requeued" 1 "the job that landed on node3 was requeued once"
for n in 1 2 4; do
  check_eq "$(state_of node$n)" "idle" "node$n passed its prologs and is idle"
done

# ---- the health check, run by Slurm every 5 seconds from now on
sed -i 's/^HealthCheckInterval=3600$/HealthCheckInterval=5/' "$SLURM_CONF"
scontrol reconfigure
break_node node2
scontrol update nodename=node4 state=drain reason="bad fan"
break_node node4
drained2() { [ "$(reason_of node2)" = "envlock: healthcheck: host.os failed" ]; }
wait_until 300 drained2
check_eq "$(state_of node2):$(reason_of node2)" "drained:envlock: healthcheck: host.os failed" "the health check drains a failing node with envlock's reason"
rc4() { [ "$(cat "$HOOK_RESULTS/nodes/node4.rc" 2>/dev/null)" = 1 ]; }
wait_until 300 rc4
check_eq "$(reason_of node4)" "bad fan" "an operator's drain keeps its reason"
# node4 stays drained with the operator's reason until the drain list has run: a health check
# already running on the broken node4 when it was resumed would drain it again with envlock's
# reason, and the drain list would then (rightly) resume it too.
repair_node node4
repair_node node3
rm -f "$HOOK_RESULTS/nodes/node3.rc" "$HOOK_RESULTS/nodes/node4.rc"
passed34() {
  [ "$(cat "$HOOK_RESULTS/nodes/node3.rc" 2>/dev/null)$(cat "$HOOK_RESULTS/nodes/node4.rc" 2>/dev/null)" = 00 ]
}
wait_until 300 passed34
check_eq "$(cat "$HOOK_RESULTS/nodes/node3.rc")" 0 "the repaired node3 passes its next health check"
check_eq "$(state_of node3)" "drained" "and stays drained until someone resumes it"

# ---- the drain list recognises the hooks' drains and resumes the repaired node
run_cmd f "$ENVLOCK" fleet verify --report-only --results "$HOOK_RESULTS" --lock "$WORK/lock.json" --nodes 'node[1-4]'
check_eq "$f_rc" 1 "--report-only folds the hooks' reports (node2 fails)"
check_contains "$f_out" "FAIL  node2  host.os (expected $OS, found Debian GNU/Linux 11)" "node2's failure is named"
check_contains "$f_out" "PASS  node3" "node3 passes"
run_cmd d "$ENVLOCK" fleet drain-list --results "$HOOK_RESULTS" --apply
check_eq "$d_rc" 0 "drain-list --apply exits 0"
check_eq "$d_out" "scontrol update nodename=node3 state=resume" "it resumes node3 only (node2 is drained already, node4 by its operator)"
scontrol update nodename=node4 state=resume
idle3() { [ "$(state_of node3)" = idle ]; }
wait_until 100 idle3
check_eq "$(state_of node3)" "idle" "node3 is back in service"
j=$(sbatch --parsable -w node3 -o "$WORK/back.out" --wrap 'echo "ran on $SLURMD_NODENAME"')
back_done() { [ -z "$(squeue -h -j "$j" 2>/dev/null)" ]; }
wait_until 300 back_done
check_eq "$(cat "$WORK/back.out")" "ran on node3" "a job runs on node3 again, its prolog passing"

# ---- an unhealthy node: the prolog drains it with the finding's id and action
sed -i 's/^HealthCheckInterval=5$/HealthCheckInterval=3600/' "$SLURM_CONF"
scontrol reconfigure
STANDIN=$(dirname "$ENVLOCK")/tests/standin/nvml/libnvidia-ml.so.1
mkdir -p "$WORK/health/node4"
cp -a "$REPO/tests/data/node/health/hgx/root" "$WORK/health/node4/root"
mkdir -p "$WORK/health/node4/root/etc" && cp /etc/os-release "$WORK/health/node4/root/etc/os-release"
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); s["gpus"][3]["nvmlDeviceGetRemappedRows"] = [0, 1, 1, 0]; json.dump(s, open(sys.argv[2], "w"))' \
  "$REPO/tests/data/node/health/hgx/nvml.json" "$WORK/health/node4/nvml.json"
cat >"$WORK/health/node4.env" <<ENV
export ENVLOCK_NODE_ROOT=$WORK/health/node4/root ENVLOCK_NVML=$STANDIN ENVLOCK_NVML_SCENARIO=$WORK/health/node4/nvml.json
ENV
HEALTH_REASON="envlock: health.gpu.row_remap_pending GPU 3: drain, reset the GPU"
j=$(sbatch --parsable -w node4 -o "$WORK/unhealthy.out" --wrap 'echo "ran on $SLURMD_NODENAME"')
drained_health4() { [ "$(state_of node4):$(reason_of node4)" = "drained:$HEALTH_REASON" ]; }
wait_until 300 drained_health4
check_eq "$(state_of node4):$(reason_of node4)" "drained:$HEALTH_REASON" "the prolog drains the node with the health finding's id and action"
check_contains "$(sinfo -R -h -o '%E|%N')" "$HEALTH_REASON|node4" "sinfo -R shows what to do"
check_eq "$(cat "$WORK/unhealthy.out" 2>/dev/null)" "" "the job did not run on the unhealthy node"
check_contains "$(cat "$HOOK_RESULTS/nodes/node4.host.json")" '"drain": "health.gpu.row_remap_pending GPU 3: drain, reset the GPU"' \
  "the node's host report carries the drain line for the fleet report"
scancel "$j"
rm -f "$WORK/health/node4.env"
scontrol update nodename=node4 state=resume

# ---- what a user can make the node show does not drain it; a user's process on a GPU does.
# node4's kernel log gets the record the kernel writes for a user's program crashing in a file
# named as an XID line (its message begins with the program's name, cut to 15 bytes, and holds
# the file's name): no XID, the job runs. Its /proc then becomes this host's real one, with Fabric
# Manager run by root from the installed binary and a real user's processes named
# nv-fabricmanager and envlock-verify, the latter on GPU 0: drained for the stray process.
cp "$REPO/tests/data/node/health/hgx/nvml.json" "$WORK/health/node4/nvml.json"
chown -R -h 0:0 "$WORK/health/node4/root" && chmod -R go-w "$WORK/health/node4/root"
printf '%s\n' '6,52311,1571466824,-;NVRM: Xid (PCI:[11150]: segfault at 0 ip 00005592eda2a139 sp 00007ffc21a2e7f0 error 6 in NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.[1139,5592eda2a000+1000] likely on CPU 1 (core 1, socket 0)' \
  '12,52312,1571466900,-;NVRM: Xid (PCI:0000:3a:00): 79, GPU has fallen off the bus.' >>"$WORK/health/node4/root/dev/kmsg"
cat >"$WORK/health/node4.env" <<ENV
export ENVLOCK_NODE_ROOT=$WORK/health/node4/root ENVLOCK_NVML=$STANDIN ENVLOCK_NVML_SCENARIO=$WORK/health/node4/nvml.json
ENV
j=$(sbatch --parsable -w node4 -o "$WORK/crash.out" --wrap 'echo "ran on $SLURMD_NODENAME"')
crash_done() { [ -z "$(squeue -h -j "$j" 2>/dev/null)" ]; }
wait_until 300 crash_done
check_eq "$(cat "$WORK/crash.out" 2>/dev/null)" "ran on node4" "a user's crash record that reads as an XID: the job runs on node4"
check_eq "$(state_of node4)" "idle" "and node4 is not drained"
mkdir -p "$WORK/u1bin" && cp /bin/sleep "$WORK/u1bin/envlock-verify" && cp /bin/sleep "$WORK/u1bin/nv-fabricmanager"
chmod 755 "$WORK" "$WORK/u1bin"
rm -rf "$WORK/health/node4/root/proc" && ln -s /proc "$WORK/health/node4/root/proc"
cp /bin/sleep "$WORK/health/node4/root/usr/bin/nv-fabricmanager"
"$WORK/health/node4/root/usr/bin/nv-fabricmanager" 600 &
E2E_PIDS+=($!)
setpriv --reuid="$U1" --regid="$(id -g envlock-u1)" --init-groups "$WORK/u1bin/nv-fabricmanager" 600 &
E2E_PIDS+=($!)
setpriv --reuid="$U1" --regid="$(id -g envlock-u1)" --init-groups "$WORK/u1bin/envlock-verify" 600 &
STRAY=$!
E2E_PIDS+=("$STRAY")
python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); s["gpus"][0]["nvmlDeviceGetComputeRunningProcesses_v3"] = [{"pid": int(sys.argv[2]), "used_mib": 64}]; json.dump(s, open(sys.argv[1], "w"))' \
  "$WORK/health/node4/nvml.json" "$STRAY"
STRAY_REASON="envlock: health.gpu.processes GPU 0: drain, end the processes"
j=$(sbatch --parsable -w node4 -o "$WORK/stray.out" --wrap 'echo "ran on $SLURMD_NODENAME"')
drained_stray4() { [ "$(state_of node4):$(reason_of node4)" = "drained:$STRAY_REASON" ]; }
wait_until 300 drained_stray4
check_eq "$(state_of node4):$(reason_of node4)" "drained:$STRAY_REASON" \
  "a user's process named envlock-verify on a GPU: the prolog drains node4 for it (Fabric Manager is root's, not the user's)"
scancel "$j"
rm -f "$WORK/health/node4.env"
scontrol update nodename=node4 state=resume

# ---- the hooks never drain for their own misconfiguration
run_cmd m env -i SLURMD_NODENAME=node1 ENVLOCK_LOCK="$WORK/none.json" ENVLOCK_BIN="$WORK/bin" "$REPO/share/slurm/envlock-prolog"
check_eq "$m_rc" 0 "a missing lock: exit 0"
check_contains "$m_err" "envlock-prolog: node1: $WORK/none.json: cannot read the lock; node not checked" "and says why"
run_cmd m env -i SLURMD_NODENAME=node1 ENVLOCK_LOCK="$WORK/lock.json" ENVLOCK_BIN="$WORK/nowhere" "$REPO/share/slurm/envlock-healthcheck"
check_eq "$m_rc" 0 "no envlock binaries: exit 0"
check_contains "$m_err" "envlock-healthcheck: node1: envlock or envlock-verify not found (ENVLOCK_BIN=$WORK/nowhere); node not checked" "and says why"
check_eq "$(state_of node1)" "idle" "node1 was not drained"
repair_node node2
finish
