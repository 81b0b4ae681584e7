# envlock fleet on a real four-node Slurm cluster on this host (lib/slurm.sh): verify in
# --no-container mode with node3 made to fail (its node-local image tree has another torch), the
# fleet report (JSON, Markdown, table) and its determinism, the batch script submitted by hand,
# the drain list (drained, then resumed after a passing pass), distribute with sbcast catching a
# corrupted copy, a roll-out that stops at the failing batch and resumes, a partition with a
# drained and a down node (not waited for, reported as not verified) and --wait-timeout.
. "$REPO/tests/e2e/lib.sh"
need_tools python3 sha256sum mksquashfs
[ -x "$ENVLOCK" ] || skip "no envlock binary at $ENVLOCK"
[ -x "$ENVLOCK_VERIFY" ] || skip "no envlock-verify binary at $ENVLOCK_VERIFY"
[ -x "$ENVLOCK_WRITE_RECORD" ] || { fail "fixture" "no $ENVLOCK_WRITE_RECORD"; finish; }
DATA=$REPO/tests/data/verify
LOCK=$DATA/lock.json
slurm_start
ok "slurm cluster: 4 idle nodes"

# The JSON report without its volatile "run" object.
no_run() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("run", None)
print(json.dumps(d, indent=2, sort_keys=True))' "$1"; }
jq_py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
TORCH_PY=usr/local/lib/python3.12/dist-packages/torch/version.py

# ---- node-local image trees; node3's torch is another version
bash "$DATA/make_rootfs.sh" root
[ -f "root/$TORCH_PY" ] || { fail "fixture" "no root/$TORCH_PY"; finish; }
for n in 1 2 3 4; do cp -a root "$WORK/slurm/local-node$n/root"; done
sed -i 's/2\.13\.0a0+8145d630e8/2.12.0/' "$WORK/slurm/local-node3/root/$TORCH_PY"
mksquashfs root image.sqsh -mkfs-time 0 -all-time 0 -all-root -quiet -no-progress >/dev/null
IMAGE_DIGEST=sha256:$(sha256sum image.sqsh | cut -d' ' -f1)
# The verifier through a wrapper that records the GPUs Slurm gave the task.
cat >verifier-wrap.sh <<WRAP
#!/bin/sh
echo "\${CUDA_VISIBLE_DEVICES:-none}" >"$WORK/gpus-\$SLURMD_NODENAME"
exec "$ENVLOCK_VERIFY" "\$@"
WRAP
chmod +x verifier-wrap.sh
# The test nodes have no GPU: the host checks (the health of the lock's 8 GPUs) are left out.
FV=("$ENVLOCK" fleet verify --lock "$LOCK" --image image.sqsh --nodes 'node[1-4]' --no-container
  --no-host-checks --verifier "$WORK/verifier-wrap.sh" --verifier-arg="--root=$SLURM_LOCAL/root")

# ---- --script-only writes the batch script and submits nothing
run_cmd s "$ENVLOCK" fleet verify --lock "$LOCK" --image image.sqsh --nodes 'node[1-4]' \
  --results container --script-only --account ml --qos acceptance --time 00:10:00
check_eq "$s_rc" 0 "--script-only exits 0"
script=$(cat container/fleet-verify.sbatch)
check_contains "$script" "--container-image='$WORK/image.sqsh'" "container mode: pyxis image is the .sqsh path"
check_contains "$script" "#SBATCH --nodelist=node1,node2,node3,node4" "nodelist in the script"
check_contains "$script" "#SBATCH --account=ml" "--account passes through"
check_eq "$(ls container/nodes 2>/dev/null | wc -l)" 0 "--script-only ran nothing"
check_contains "$script" "#SBATCH --gpus-per-node=8
#SBATCH --exclusive" "the job asks for the lock's 8 GPUs per node and the whole node"
run_cmd g "$ENVLOCK" fleet verify --lock "$LOCK" --image image.sqsh --nodes 'node[1-4]' \
  --results gres --script-only --gres gpu:8 --no-exclusive
script=$(cat gres/fleet-verify.sbatch)
check_contains "$script" "#SBATCH --gres=gpu:8" "--gres: passed as the GPU request"
check_not_contains "$script" "--gpus-per-node" "--gres: no --gpus-per-node"
check_not_contains "$script" "--exclusive" "--no-exclusive: no --exclusive"
run_cmd g "$ENVLOCK" fleet verify --lock "$LOCK" --image image.sqsh --nodes 'node[1-4]' \
  --results gres --script-only --gres gpu:8 --gpus-per-node 2
check_eq "$g_rc:$g_err" "2:envlock: error: --gres and --gpus-per-node both ask for GPUs; give one" \
  "--gres with --gpus-per-node: refused"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["expect"]["gpus"]["count"] = 0; json.dump(d, open("nocount.json","w"), indent=2)' "$LOCK"
run_cmd g "$ENVLOCK" fleet verify --lock nocount.json --image image.sqsh --nodes 'node[1-4]' \
  --results nocount --script-only
check_contains "$g_err" "envlock: warning: the lock names no GPU count (expect.gpus.count is 0), so the job asks Slurm for no GPUs" \
  "a lock without a GPU count: the job asks for none, and says so"
check_not_contains "$(cat nocount/fleet-verify.sbatch)" "--gpus-per-node" "a lock without a GPU count: no request"

# ---- --script-only --partition: written without a controller; the script asks sinfo when run
run_cmd sp env SLURM_CONF="$WORK/no-such-slurm.conf" "$ENVLOCK" fleet verify --lock "$LOCK" \
  --image image.sqsh --partition debug --no-container --verifier "$ENVLOCK_VERIFY" \
  --verifier-arg="--root=$SLURM_LOCAL/root" --results bypart --script-only
check_eq "$sp_rc" 0 "--script-only --partition: exit 0 with no controller to ask ($sp_err)"
check_eq "$sp_out" "$WORK/bypart/fleet-verify.sbatch" "--script-only --partition: the script's path"
check_eq "$sp_err" "envlock: submit it with 'bash $WORK/bypart/fleet-verify.sbatch': it asks sinfo for the nodes of partition debug and submits itself with them" \
  "--script-only --partition: how to submit it"
script=$(cat bypart/fleet-verify.sbatch)
check_not_contains "$script" "#SBATCH --nodes=" "--script-only --partition: no node count fixed"
check_contains "$script" "nodes=\$(sinfo -h -p 'debug' -o %N | paste -sd, -)" "--script-only --partition: sinfo when run"
run_cmd sb bash bypart/fleet-verify.sbatch
check_contains "$sb_out" "Submitted batch job" "bash SCRIPT submits itself"
bypart_done() { [ "$(ls bypart/nodes/*.rc 2>/dev/null | wc -l)" -eq 4 ]; }
wait_until 600 bypart_done
check_eq "$(cd bypart/nodes && ls *.rc | tr '\n' ' ')" "node1.rc node2.rc node3.rc node4.rc " \
  "the submitted script ran on every node of the partition"

# ---- verify: node3 fails
run_cmd v "${FV[@]}" --results r1
check_eq "$v_rc" 1 "fleet verify with a failing node exits 1"
check_contains "$v_err" "nodes done 4/4" "progress: nodes done"
check_eq "$(cat "$WORK"/gpus-node1 "$WORK"/gpus-node4 2>/dev/null | tr '\n' ' ')" "0,1,2,3,4,5,6,7 0,1,2,3,4,5,6,7 " \
  "each node's task was given the node's 8 GPUs by Slurm"
check_contains "$v_out" "FAIL  node3  torch.version (expected 2.13.0a0+8145d630e8, found 2.12.0)" "table names node3's failure and values"
check_contains "$v_out" "PASS  node1" "node1 passes"
check_contains "$v_out" "3 passed, 1 failed, 0 missing of 4 nodes" "summary line"
check_eq "$(ls r1/nodes/*.json | wc -l)" 4 "four node reports"
check_eq "$(jq_py r1/fleet-report.json 'd["outcome"], d["summary"]["failed"], d["image_digest"]')" \
  "fail 1 $IMAGE_DIGEST" "fleet-report.json: outcome, failed count, image digest"
check_eq "$(jq_py r1/fleet-report.json '[f["node"]+":"+f["check"] for f in d["failures"]]')" \
  "['node3:torch.version']" "failures list node3 only"
check_eq "$(jq_py r1/fleet-report.json 'd["nodes"][2]["checks"]["torch.version"], d["nodes"][0]["checks"]["torch.version"]')" \
  "fail pass" "matrix: node3 fail, node1 pass"
check_contains "$(cat r1/fleet-report.md)" "| node3 | torch.version | 2.13.0a0+8145d630e8 | 2.12.0 |" "Markdown failure row"

# ---- the same run gives the same report
run_cmd v2 "${FV[@]}" --results r2
check_eq "$(no_run r2/fleet-report.json)" "$(no_run r1/fleet-report.json)" "fleet-report.json is deterministic (run removed)"
check_eq "$(cat r2/fleet-report.md)" "$(cat r1/fleet-report.md)" "fleet-report.md is deterministic"

# ---- the batch script can be submitted by hand
rm -f r1/nodes/*
sbatch --wait r1/fleet-verify.sbatch >/dev/null 2>&1
check_eq "$(ls r1/nodes/*.rc | wc -l)" 4 "hand-submitted script: every node wrote its exit status"
check_eq "$(cat r1/nodes/node3.rc) $(cat r1/nodes/node1.rc)" "1 0" "hand-submitted script: node3 exit 1, node1 exit 0"

# ---- drain-list: drain node3; after repair and a passing pass, resume it
run_cmd d "$ENVLOCK" fleet drain-list --results r2
check_eq "$d_rc" 0 "drain-list exits 0"
check_eq "$d_out" 'scontrol update nodename=node3 state=drain reason="envlock: torch.version failed"' "drain-list prints node3's drain line only"
run_cmd d "$ENVLOCK" fleet drain-list --results r2 --apply
check_eq "$(sinfo -h -N -n node3 -o '%T|%E')" "drained|envlock: torch.version failed" "--apply drained node3 with the reason"
run_cmd d "$ENVLOCK" fleet drain-list --results r2
check_eq "$d_out" "" "an already drained node is not drained again"
cp "$WORK/slurm/local-node1/root/$TORCH_PY" "$WORK/slurm/local-node3/root/$TORCH_PY"
# A drained node runs no Slurm job: the repaired node's pass is run on it directly (as a
# technician would), and --report-only folds the results folder again.
"$ENVLOCK_VERIFY" --lock "$LOCK" --root "$WORK/slurm/local-node3/root" --format json -o r2/nodes/node3.json >/dev/null
echo $? > r2/nodes/node3.rc
run_cmd v "${FV[@]}" --results r2 --report-only
check_eq "$v_rc" 0 "--report-only: all four pass after the repair"
run_cmd d "$ENVLOCK" fleet drain-list --results r2 --apply
check_eq "$d_out" "scontrol update nodename=node3 state=resume" "drain-list resumes the repaired node"
node3_idle() { [ "$(sinfo -h -N -n node3 -o '%T')" = idle ]; }
wait_until 100 node3_idle
check_eq "$(sinfo -h -N -n node3 -o '%T')" "idle" "node3 is back in service"

# ---- distribute: sbcast to every node's local storage, sha256 checked on each node
# The image's squashfs result, written by envlock's own writer (envlock_write_record reads it first).
python3 - "${IMAGE_DIGEST#sha256:}" "$(stat -c %s image.sqsh)" <<'PY' | "$ENVLOCK_WRITE_RECORD" squashfs-result >squashfs-result.json
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
check_eq "$(jq_py squashfs-result.json 'd["sqsh"]["sha256"]')" "${IMAGE_DIGEST#sha256:}" "the image's squashfs result, as envlock writes it"
run_cmd c "$ENVLOCK" fleet distribute image.sqsh --result squashfs-result.json \
  --dest "$SLURM_LOCAL/image.sqsh" --nodes 'node[1-4]' --results dist
check_eq "$c_rc" 0 "distribute to four nodes exits 0"
check_contains "$c_out" "4 of 4 nodes hold $SLURM_LOCAL/image.sqsh with sha256 ${IMAGE_DIGEST#sha256:}" "distribute summary"
check_eq "$(sha256sum "$WORK/slurm/local-node4/image.sqsh" | cut -d' ' -f1)" "${IMAGE_DIGEST#sha256:}" "node4's local copy is the image"
printf 'X' | dd of="$WORK/slurm/local-node2/image.sqsh" bs=1 seek=100 conv=notrunc 2>/dev/null
run_cmd c "$ENVLOCK" fleet distribute image.sqsh --result squashfs-result.json \
  --dest "$SLURM_LOCAL/image.sqsh" --nodes 'node[1-4]' --results dist --check-only
check_eq "$c_rc" 1 "a corrupted copy fails (exit 1)"
check_contains "$c_out" "FAIL  node2  sha256 " "the corrupted node is named"
check_eq "$(jq_py dist/distribute-report.json '[n["node"] for n in d["nodes"] if n["outcome"]!="pass"]')" "['node2']" "distribute-report.json lists node2"
run_cmd d "$ENVLOCK" fleet drain-list --results dist
check_eq "$d_out" 'scontrol update nodename=node2 state=drain reason="envlock: image copy differs"' "the corrupted copy is on the drain list"
run_cmd b "$ENVLOCK" fleet distribute image.sqsh --result squashfs-result.json --dest relative.sqsh --nodes node1
check_eq "$b_rc:$b_err" "2:envlock: error: --dest: must be an absolute path on the nodes: 'relative.sqsh'" "relative --dest is refused"

# ---- rollout: batches 1,1,2; node4 fails in batch 3; resumed after the repair
sed -i 's/2\.13\.0a0+8145d630e8/2.12.0/' "$WORK/slurm/local-node4/root/$TORCH_PY"
RO=("$ENVLOCK" fleet rollout --lock "$LOCK" --image image.sqsh --nodes 'node[1-4]' --no-container --no-host-checks
  --verifier "$ENVLOCK_VERIFY" --verifier-arg="--root=$SLURM_LOCAL/root" --batches 1,1,2
  --state state.json --results ro)
run_cmd r "${RO[@]}"
check_eq "$r_rc" 1 "rollout stops with exit 1 at the failing batch"
check_contains "$r_out" "batch 3/3: node3,node4" "third batch is node3,node4"
check_contains "$r_out" "roll-out stopped at batch 3/3" "stopped at batch 3"
check_eq "$(jq_py state.json 'd["status"], d["next_batch"], d["nodes"]["node2"]["status"], d["nodes"]["node4"]["status"]')" \
  "stopped 3 passed failed" "state file: stopped, next batch 3, node2 passed, node4 failed"
check_eq "$(jq_py state.json 'd["nodes"]["node1"]["image_digest"]')" "$IMAGE_DIGEST" "state records the image digest node1 passed with"
cp "$WORK/slurm/local-node1/root/$TORCH_PY" "$WORK/slurm/local-node4/root/$TORCH_PY"
before=$(stat -c %Y ro/batch-1/fleet-report.json)
run_cmd r "${RO[@]}"
check_eq "$r_rc" 0 "resumed rollout finishes (exit 0)"
check_contains "$r_err" "resuming the roll-out in state.json at batch 3/3" "resumes at batch 3"
check_contains "$r_out" "batch 1/3: node1 passed earlier with $IMAGE_DIGEST" "batch 1 not run again"
check_eq "$(stat -c %Y ro/batch-1/fleet-report.json)" "$before" "batch 1's results untouched"
check_eq "$(jq_py state.json 'd["status"], sorted(n["status"] for n in d["nodes"].values())')" \
  "done ['passed', 'passed', 'passed', 'passed']" "state: done, all passed"

# ---- a partition with a drained and a down node: those two are not waited for
scontrol update nodename=node2 state=drain reason="maintenance"
scontrol update nodename=node4 state=down reason="power supply"
PV=("$ENVLOCK" fleet verify --lock "$LOCK" --image image.sqsh --partition debug --no-container --no-host-checks
  --verifier "$ENVLOCK_VERIFY" --verifier-arg="--root=$SLURM_LOCAL/root")
run_cmd p "${PV[@]}" --results part
check_eq "$p_rc" 1 "a partition with nodes out of service: exit 1, not every node verified"
check_contains "$p_out" "SKIP  node2  not verified: drained (maintenance)" "the drained node is named with its state and reason"
check_contains "$p_out" "SKIP  node4  not verified: down (power supply)" "the down node is named with its state and reason"
check_contains "$p_out" "PASS  node1" "node1 is verified"
check_contains "$p_out" "PASS  node3" "node3 is verified"
check_contains "$p_out" "2 passed, 0 failed, 0 missing, 2 not verified of 4 nodes" "summary counts the nodes not verified"
check_contains "$(cat part/fleet-verify.sbatch)" "#SBATCH --nodelist=node1,node3" "the job asks for the usable nodes only"
check_eq "$(jq_py part/fleet-report.json 'd["summary"]["not_verified"], [(n["node"], n["reason"]) for n in d["not_verified"]]')" \
  "2 [('node2', 'drained (maintenance)'), ('node4', 'down (power supply)')]" "fleet-report.json lists them"
check_contains "$(cat part/fleet-report.md)" "| node4 | down (power supply) |" "fleet-report.md lists them"
run_cmd p "${PV[@]}" --results part --report-only
check_contains "$p_out" "SKIP  node2  not verified: drained (maintenance)" "--report-only keeps them as not verified"
run_cmd d "$ENVLOCK" fleet drain-list --results part
check_eq "$d_rc:$d_out" "0:" "drain-list leaves nodes that were not verified alone"
scontrol update nodename=node2 state=resume
scontrol update nodename=node4 state=resume

# ---- --wait-timeout: a job that cannot start is cancelled, its nodes reported as not verified
blocker=$(sbatch --parsable --exclusive -w node1 --wrap 'sleep 120')
busy1() { [ "$(sinfo -h -N -n node1 -o %T)" = allocated ]; }
wait_until 100 busy1
run_cmd w "$ENVLOCK" fleet verify --lock "$LOCK" --image image.sqsh --nodes node1 --no-container \
  --verifier "$ENVLOCK_VERIFY" --results waited --wait-timeout 2
check_eq "$w_rc" 1 "a job pending past --wait-timeout: exit 1"
job=$(jq_py waited/fleet-report.json 'd["run"]["job_id"]')
check_contains "$w_out" "SKIP  node1  not verified: job $job pending for more than 2 s (Resources); cancelled; node allocated" "the node is reported with the pending reason and its state"
check_eq "$(scontrol show job -o "$job" | grep -o 'JobState=[A-Z]*')" "JobState=CANCELLED" "the pending job was cancelled"

# ---- SIGINT while fleet verify waits for its pending job: the job is cancelled, exit 130
mkdir -p "$WORK/tmp-fleet"
set -m # job control: a background job of a script would ignore SIGINT
TMPDIR="$WORK/tmp-fleet" "$ENVLOCK" fleet verify --lock "$LOCK" --image image.sqsh --nodes node1 \
  --no-container --verifier "$ENVLOCK_VERIFY" --results interrupted >"$WORK/fi.out" 2>"$WORK/fi.err" &
fpid=$!
set +m
pending_job() { squeue -h -t PD -o %i | grep -vx "$blocker" | grep -q .; }
if wait_until 300 pending_job; then
  job=$(squeue -h -t PD -o %i | grep -vx "$blocker" | head -1)
  kill -INT "$fpid"
  wait "$fpid"
  check_eq "$?" 130 "fleet verify, SIGINT while waiting: exit 130"
  check_contains "$(cat "$WORK/fi.err")" "envlock: error: interrupted by SIGINT" "fleet verify, SIGINT while waiting: message"
  check_eq "$(scontrol show job -o "$job" | grep -o 'JobState=[A-Z]*')" "JobState=CANCELLED" \
    "fleet verify, SIGINT while waiting: its job is cancelled"
  check_eq "$(ls -A "$WORK/tmp-fleet" | wc -l)" 0 "fleet verify, SIGINT while waiting: nothing left in TMPDIR"
else
  kill -9 "$fpid"
  wait "$fpid"
  fail "fleet verify, SIGINT while waiting" "no pending job appeared: $(tail -3 "$WORK/fi.err")"
fi
scancel "$blocker"

# ---- usage errors
run_cmd u "$ENVLOCK" fleet verify --lock "$LOCK" --image image.sqsh
check_eq "$u_rc:$u_err" "2:envlock: error: give the nodes: --nodes LIST or --partition P" "nodes are required"
run_cmd u "$ENVLOCK" fleet verify --lock "$LOCK" --image docker://registry.example.invalid/a/b:latest --nodes node1
check_eq "$u_rc:$u_err" "2:envlock: error: --image: a docker:// image must be pinned by digest (REF@sha256:…): 'docker://registry.example.invalid/a/b:latest'" "unpinned docker image refused"
run_cmd u "$ENVLOCK" fleet rollout --lock "$LOCK" --image image.sqsh --nodes node1 --batches 1,0
check_eq "$u_rc:$u_err" "2:envlock: error: --batches: expected positive numbers separated by commas, e.g. 1,8,64: '1,0'" "bad --batches refused"
finish
