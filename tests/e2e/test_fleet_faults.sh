# envlock fleet when nodes and Slurm fail, on a real cluster of 16 slurmd on this host
# (lib/slurm.sh): one node's slurmd killed mid-run (its step lives on), one node killed outright
# (slurmd and its step), a failing `scontrol show job` poll (a wrapper on PATH), Slurm not
# answering at all, a job not over by --deadline, a drained node given to distribute, and
# distribute's pending limit. Each case
# asserts the exact verdicts: the healthy nodes pass, a lost node is "not verified" and never on
# the drain list, the report is written, and no job is left running.
. "$REPO/tests/e2e/lib.sh"
need_tools python3 sha256sum mksquashfs
[ -x "$ENVLOCK" ] || skip "no envlock binary at $ENVLOCK"
[ -x "$ENVLOCK_VERIFY" ] || skip "no envlock-verify binary at $ENVLOCK_VERIFY"
[ -x "$ENVLOCK_WRITE_RECORD" ] || { fail "fixture" "no $ENVLOCK_WRITE_RECORD"; finish; }
DATA=$REPO/tests/data/verify
LOCK=$DATA/lock.json
export SLURM_NODES=16 SLURM_MUNGE_THREADS=4
slurm_start
ok "slurm cluster: 16 idle nodes"

jq_py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
job_state() { scontrol show job -o "$1" | grep -o 'JobState=[A-Z_]*'; }
TORCH_PY=usr/local/lib/python3.12/dist-packages/torch/version.py

# ---- node-local image trees; node3's torch is another version (a real failure)
bash "$DATA/make_rootfs.sh" root
for n in $(seq 1 16); do cp -a root "$WORK/slurm/local-node$n/root"; done
sed -i 's/2\.13\.0a0+8145d630e8/2.12.0/' "$WORK/slurm/local-node3/root/$TORCH_PY"
mksquashfs root image.sqsh -mkfs-time 0 -all-time 0 -all-root -quiet -no-progress >/dev/null
# The verifier through a wrapper: a node named in $WORK/hold waits (at most 90 s) for
# $WORK/go-NODE before it verifies, and says it is waiting in $WORK/pid-NODE.
cat >verifier-wrap.sh <<WRAP
#!/bin/sh
if grep -qx "\$SLURMD_NODENAME" "$WORK/hold" 2>/dev/null; then
  echo \$\$ >"$WORK/pid-\$SLURMD_NODENAME"
  i=0
  while [ ! -e "$WORK/go-\$SLURMD_NODENAME" ] && [ \$i -lt 900 ]; do sleep 0.1; i=\$((i + 1)); done
fi
exec "$ENVLOCK_VERIFY" "\$@"
WRAP
chmod +x verifier-wrap.sh
FV=("$ENVLOCK" fleet verify --lock "$LOCK" --image image.sqsh --no-container --no-host-checks
  --verifier "$WORK/verifier-wrap.sh" --verifier-arg="--root=$SLURM_LOCAL/root")

# The slurmstepd above a process (its step's daemon on the node).
stepd_of() {
  local p=$1
  while [ "$p" -gt 1 ]; do
    [ "$(cat "/proc/$p/comm" 2>/dev/null)" = slurmstepd ] && { echo "$p"; return 0; }
    p=$(awk '{print $4}' "/proc/$p/stat" 2>/dev/null) || return 1
  done
  return 1
}

# ---- node5's slurmd is killed mid-run (its step lives on), node9 is killed outright
printf 'node5\nnode9\n' >hold
"${FV[@]}" --nodes 'node[1-16]' --results lost --parallel-steps 4 --step-timeout 120 \
  >lost.out 2>lost.err &
fv=$!
if wait_until 600 test -s pid-node5 && wait_until 600 test -s pid-node9; then
  kill -9 "$(slurm_slurmd_pid 5)"
  wrapper9=$(cat pid-node9)
  stepd9=$(stepd_of "$wrapper9")
  kill -9 "$(slurm_slurmd_pid 9)" "$stepd9" "$(awk '{print $4}' "/proc/$wrapper9/stat")" "$wrapper9"
  ok "node5's slurmd killed; node9's slurmd, slurmstepd and verifier killed"
else
  fail "the held nodes started" "$(cat lost.err)"
fi
wait "$fv"
check_eq "$?" 1 "lost nodes: fleet verify ends (exit 1: node3 fails)"
out=$(cat lost.out)
job=$(jq_py lost/fleet-report.json 'd["run"]["job_id"]')
check_contains "$out" "FAIL  node3   torch.version (expected 2.13.0a0+8145d630e8, found 2.12.0)" "lost nodes: node3's real failure is named"
check_contains "$out" "SKIP  node5   not verified: no result from the node; job $job COMPLETED; node down* (Not responding)" "lost nodes: node5 is not verified, in Slurm's words"
check_contains "$out" "SKIP  node9   not verified: no result from the node; job $job COMPLETED; node down* (Not responding)" "lost nodes: node9 is not verified, in Slurm's words"
check_contains "$out" "13 passed, 1 failed, 0 missing, 2 not verified of 16 nodes" "lost nodes: the 13 healthy bystanders pass"
check_eq "$(jq_py lost/fleet-report.json '[n for n, o in sorted(((x["node"], x["outcome"]) for x in d["nodes"])) if o == "pass"]')" \
  "['node1', 'node10', 'node11', 'node12', 'node13', 'node14', 'node15', 'node16', 'node2', 'node4', 'node6', 'node7', 'node8']" \
  "lost nodes: fleet-report.json passes exactly the bystanders"
check_eq "$(scontrol show job -o "$job" | grep -o 'JobState=[A-Z_]* .*Restarts=[0-9]*' | sed 's/ .*Restarts=/ Restarts=/')" \
  "JobState=COMPLETED Restarts=0" "lost nodes: the job was neither killed nor requeued"
run_cmd d "$ENVLOCK" fleet drain-list --results lost
check_eq "$d_rc:$d_out" '0:scontrol update nodename=node3 state=drain reason="envlock: torch.version failed"' \
  "lost nodes: drain-list names node3 only, never a node that did not answer"
# node5's step lived on without its slurmd: released now, its result lands and is used.
touch go-node5
wait_until 300 test -e lost/nodes/node5.rc
run_cmd v "${FV[@]}" --nodes 'node[1-16]' --results lost --report-only
check_contains "$v_out" "PASS  node5" "a result that reaches the folder later is used (--report-only)"
check_contains "$v_out" "14 passed, 1 failed, 0 missing, 1 not verified of 16 nodes" "--report-only: node9 stays not verified"
rm -f hold

# ---- a failing `scontrol show job` poll (the 2nd and 3rd fail) is retried
mkdir -p flaky-bin
cat >flaky-bin/scontrol <<SH
#!/bin/sh
# scontrol, but the 2nd and 3rd 'show job' fail as a timed-out controller would.
if [ "\$1 \$2" = "show job" ]; then
  n=\$(( \$(cat "$WORK/show-job-calls" 2>/dev/null || echo 0) + 1 ))
  echo "\$n" >"$WORK/show-job-calls"
  if [ "\$n" -eq 2 ] || [ "\$n" -eq 3 ]; then
    echo "slurm_load_jobs error: Socket timed out on send/recv operation" >&2
    exit 1
  fi
fi
exec $(command -v scontrol) "\$@"
SH
chmod +x flaky-bin/scontrol
printf 'node2\n' >hold
(sleep 4 && touch go-node2) &
run_cmd f env PATH="$WORK/flaky-bin:$PATH" "${FV[@]}" --nodes 'node[1-4]' --results flaky
check_eq "$f_rc" 1 "failed polls: fleet verify goes on (exit 1: node3 fails)"
check_contains "$f_out" "3 passed, 1 failed, 0 missing of 4 nodes" "failed polls: every node judged"
check_eq "$(( $(cat show-job-calls) > 3 ))" 1 "failed polls: polled again after the failures"
check_eq "$(jq_py flaky/fleet-report.json 'd["outcome"], d["summary"]["failed"]')" "fail 1" "failed polls: the report is written"
rm -f hold go-node2

# ---- Slurm stops answering: envlock gives up at its deadline, cancels the job, writes the report
cat >flaky-bin/scontrol <<SH
#!/bin/sh
if [ "\$1 \$2" = "show job" ]; then
  echo "slurm_load_jobs error: Unable to contact slurm controller (connect failure)" >&2
  exit 1
fi
exec $(command -v scontrol) "\$@"
SH
printf 'node2\n' >hold
run_cmd u env PATH="$WORK/flaky-bin:$PATH" "${FV[@]}" --nodes 'node[1-4]' --results unreach --deadline 8
check_eq "$u_rc" 1 "Slurm not answering: exit 1, not an error"
job=$(jq_py unreach/fleet-report.json 'd["run"]["job_id"]')
check_contains "$u_out" "SKIP  node2  not verified: no result from the node; Slurm could not be asked about job $job (" "Slurm not answering: the held node is not verified"
check_contains "$u_out" "scontrol show job $job failed: slurm_load_jobs error: Unable to contact slurm controller (connect failure)); cancelled" "Slurm not answering: the last error, and the job cancelled"
check_contains "$u_out" "PASS  node1" "Slurm not answering: node1's result is used"
check_contains "$u_out" "FAIL  node3" "Slurm not answering: node3's result is used"
check_contains "$u_err" "envlock: warning: Slurm could not be asked about job $job" "Slurm not answering: said on stderr"
job_over() { case $(job_state "$job") in *CANCELLED*) return 0 ;; esac; return 1; }
wait_until 100 job_over
check_eq "$(job_state "$job")" "JobState=CANCELLED" "Slurm not answering: the job is cancelled, not left running"
touch go-node2
rm -f hold go-node2

# ---- a job not over by --deadline is cancelled; the nodes done by then are judged
printf 'node2\n' >hold
run_cmd t "${FV[@]}" --nodes 'node[1-2]' --results deadline --deadline 5
job=$(jq_py deadline/fleet-report.json 'd["run"]["job_id"]')
check_eq "$t_rc" 1 "deadline: exit 1 (a node not verified)"
check_contains "$t_out" "SKIP  node2  not verified: no result from the node; job $job RUNNING not over by the 5 s deadline; cancelled" "deadline: the held node is not verified, the job cancelled"
check_contains "$t_out" "PASS  node1" "deadline: node1's result is used"
job_over() { case $(job_state "$job") in *CANCELLED*) return 0 ;; esac; return 1; }
wait_until 100 job_over
check_eq "$(job_state "$job")" "JobState=CANCELLED" "deadline: the job is cancelled, not left running"
touch go-node2
rm -f hold

# ---- distribute: a drained node in the list is not waited for; the others are copied
python3 - "$(sha256sum image.sqsh | cut -d' ' -f1)" "$(stat -c %s image.sqsh)" <<'PY' | "$ENVLOCK_WRITE_RECORD" squashfs-result >squashfs-result.json
import json, sys
digest = "sha256:" + "0" * 64
print(json.dumps({"schema": "envlock.squashfs-result/v1",
  "image": {"reference": "oci:root", "manifest_digest": digest, "platform": "linux/amd64"},
  "sqsh": {"file": "image.sqsh", "sha256": sys.argv[1], "size": int(sys.argv[2])}, "tree_digest": digest,
  "producer": "envlock",
  "enroot": {"compatible_with": "4.1.2", "squash_options": "-comp lzo -noD -exit-on-error",
             "source_date_epoch": 0, "locale": "C.UTF-8"},
  "squashfs_tools": {"version": "4.5.1", "mksquashfs_arguments": ["-all-root"]},
  "superblock": {"block_size": 131072, "bytes_used": int(sys.argv[2]), "compression": "gzip", "flags": 0,
                 "fragment_count": 0, "id_count": 1, "inode_count": 1, "mkfs_time": 0, "version": "4.0"}}))
PY
scontrol update nodename=node7 state=drain reason="maintenance"
run_cmd c "$ENVLOCK" fleet distribute image.sqsh --result squashfs-result.json \
  --dest "$SLURM_LOCAL/image.sqsh" --nodes 'node[6-8]' --results dist --wait-timeout 30
check_eq "$c_rc" 1 "distribute with a drained node: exit 1 (not every node holds a copy)"
check_contains "$c_out" "SKIP  node7  not verified: drained (maintenance)" "distribute: the drained node, with its state"
check_contains "$c_out" "PASS  node6" "distribute: node6 copied"
check_contains "$c_out" "PASS  node8" "distribute: node8 copied"
check_contains "$(cat dist/fleet-distribute.sbatch)" "#SBATCH --nodelist=node6,node8" "distribute: the job asks for the usable nodes only"
check_eq "$(jq_py dist/distribute-report.json '[(n["node"], n["outcome"]) for n in d["nodes"]]')" \
  "[('node6', 'pass'), ('node7', 'not_verified'), ('node8', 'pass')]" "distribute-report.json: node7 not_verified"
run_cmd d "$ENVLOCK" fleet drain-list --results dist
check_eq "$d_rc:$d_out" "0:" "distribute: drain-list leaves the node not verified alone"
scontrol update nodename=node7 state=resume

# ---- distribute's pending limit: a job that cannot start is cancelled, with the reason
blocker=$(sbatch --parsable --exclusive -w node6 --wrap 'sleep 120')
busy6() { [ "$(sinfo -h -N -n node6 -o %T)" = allocated ]; }
wait_until 100 busy6
run_cmd w "$ENVLOCK" fleet distribute image.sqsh --result squashfs-result.json \
  --dest "$SLURM_LOCAL/image.sqsh" --nodes node6 --results distwait --wait-timeout 2
check_eq "$w_rc" 1 "distribute pending past --wait-timeout: exit 1"
job=$(jq_py distwait/distribute-report.json 'd["run"]["job_id"]')
check_contains "$w_out" "SKIP  node6  not verified: job $job pending for more than 2 s (Resources); cancelled; node allocated" "distribute: the pending reason and the node's state"
check_eq "$(job_state "$job")" "JobState=CANCELLED" "distribute: the pending job was cancelled"
scancel "$blocker"
finish
