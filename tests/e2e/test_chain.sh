# The chain from a node back to the manifest: envlock-verify records the image digest and the
# .sqsh sha256 it was given (--image-digest, --sqsh with the importer's record, a
# squashfs-result.json, or the file hashed), null with a reason when nothing gave them; `envlock
# chain verify` checks a signed provenance, a squashfs result and each report, naming the first
# broken link of each.
# Every record is made by envlock's own writers: the verifier's reports, and the records no command
# of this suite writes (the importer's record, the statement, the squashfs result) through
# envlock_write_record, which reads them with their readers first.
. "$REPO/tests/e2e/lib.sh"
need_tools python3 sha256sum unshare hostname setpriv useradd
# A private /etc (lib/private_etc.sh): a node's key goes to /etc/envlock/node.key by default, and a
# real user owns a key in one check.
private_etc
[ -x "$ENVLOCK_WRITE_RECORD" ] || { fail "fixture" "no $ENVLOCK_WRITE_RECORD"; finish; }
# write_record TYPE OUT: the JSON on standard input, read and written by envlock's TYPE writer.
write_record() { "$ENVLOCK_WRITE_RECORD" "$1" >"$2"; }
V=$ENVLOCK_VERIFY
bash "$REPO/tests/data/verify/make_rootfs.sh" root
verify() { "$V" --root root --check packages "$@"; }

# ---- the links envlock-verify records
printf 'a squashfs image, for its bytes\n' >image.sqsh
SQSH=$(sha256sum image.sqsh | cut -d' ' -f1)
IMAGE=sha256:$(printf 'image' | sha256sum | cut -d' ' -f1)
run_cmd n verify --format json -o none.json
field() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); v=eval(sys.argv[2]); print("null" if v is None else v)' "$@"; }
check_eq "$(field none.json 'r["image_digest"], r["sqsh_sha256"]')" "(None, None)" "nothing given: both links null"
check_eq "$(field none.json 'r["details"]["chain"]["image_digest_missing"]')" \
  "no --image-digest, and no --sqsh whose record names the image" "the reason is in details.chain"
LOCK_SHA=$(field none.json 'r["lock_sha256"]')
run_cmd h verify --sqsh image.sqsh --image-digest "$IMAGE" --format json -o hashed.json
check_eq "$(field hashed.json 'r["image_digest"], r["sqsh_sha256"]')" "('$IMAGE', '$SQSH')" \
  "--sqsh without a record: the file is hashed"
check_eq "$(field hashed.json 'r["details"]["chain"]["sqsh_sha256_from"]')" "hashed image.sqsh" \
  "details.chain says it was hashed"
check_contains "$h_out" "lock sha256 $LOCK_SHA, image $IMAGE, .sqsh sha256 $SQSH" "the table names the links"
check_contains "$(cat hashed.json)" '"image_digest": "'"$IMAGE"'"' "JSON top-level image_digest"
run_cmd j verify --sqsh image.sqsh --image-digest "$IMAGE" --junit hashed.xml
check_contains "$(cat hashed.xml)" "<property name=\"sqsh_sha256\" value=\"$SQSH\"/>" "JUnit properties carry the links"

# The importer's record beside the .sqsh names the image and the sha256 (its size still matches).
RECORDED=$(printf 'recorded' | sha256sum | cut -d' ' -f1)
python3 - "$RECORDED" "$(stat -c %s image.sqsh)" "$IMAGE" <<'PY' | write_record image-record image.sqsh.json
import json, sys
print(json.dumps({"schema": "envlock.image-record/v1",
  "image": {"name": "registry.example.invalid/ml/shan-training", "tag": "", "digest": sys.argv[3],
            "manifest_digest": sys.argv[3], "platform": "linux/amd64"},
  "lock": {"path": "", "sha256": "", "pin": "none"},
  "sqsh": {"file": "image.sqsh", "sha256": sys.argv[1], "size": int(sys.argv[2])},
  "tree_digest": sys.argv[3], "expected_from": "first import",
  "enroot": {"squash_options": "-comp lzo -noD -exit-on-error", "source_date_epoch": 0}}))
PY
check_eq "$(python3 -c 'import json; print(json.load(open("image.sqsh.json"))["schema"])')" \
  "envlock.image-record/v1" "the importer's record, as its writer writes it"
run_cmd r verify --sqsh image.sqsh --format json -o record.json
check_eq "$(field record.json 'r["image_digest"], r["sqsh_sha256"]')" "('$IMAGE', '$RECORDED')" \
  "the importer's record: its digest and sha256, not a re-hash"
check_eq "$(field record.json 'r["details"]["chain"]["image_digest_from"]')" "image.sqsh.json" \
  "details.chain names the record"
printf 'grown\n' >>image.sqsh
run_cmd g verify --sqsh image.sqsh --format json -o grown.json
check_eq "$(field grown.json 'r["sqsh_sha256"]')" "$(sha256sum image.sqsh | cut -d' ' -f1)" \
  "a .sqsh whose size no longer matches its record is hashed again"
rm image.sqsh.json
printf 'a squashfs image, for its bytes\n' >image.sqsh
run_cmd b "$V" --root root --check packages --image-digest sha256:nope
check_eq "$b_rc:$b_err" "2:envlock-verify: error: --image-digest: 'sha256:nope' is not sha256:<64 hex>" \
  "a malformed --image-digest is an input error"

# ---- envlock chain verify
"$ENVLOCK" keygen -o signer >/dev/null
python3 - "$LOCK_SHA" "${IMAGE#sha256:}" "$SQSH" <<'PY' | write_record provenance provenance.json
import json, sys
lock, image, sqsh = sys.argv[1:4]
file = lambda name, sha: {"name": name, "digest": {"sha256": sha}}
print(json.dumps({
    "_type": "https://in-toto.io/Statement/v1",
    "subject": [file("registry.example.invalid/ml/shan-training", image), file("shan-training.sqsh", sqsh)],
    "predicateType": "https://slsa.dev/provenance/v1",
    "predicate": {
        "buildDefinition": {
            "buildType": "urn:envlock:build-type:container-image:v1",
            "externalParameters": {"manifest": {"envlock": 1}, "manifestFile": file("envlock.yaml", lock),
                                   "lockFile": file("envlock.lock.json", lock)},
            "internalParameters": {"buildArgs": {}, "sourceDateEpoch": 0},
            "resolvedDependencies": [file("Dockerfile", lock)]},
        "runDetails": {"builder": {"id": "urn:envlock:builder:buildah", "version": {"buildah": "1.28.2"}},
                       "metadata": {"invocationId": "urn:envlock:build-result:sha256:" + lock,
                                    "startedOn": "2026-11-30T23:01:52Z", "finishedOn": "2026-11-30T23:02:11Z"},
                       "byproducts": [file("build-result.log", lock)]}}}))
PY
"$ENVLOCK" provenance sign --key signer provenance.json -o provenance.dsse.json >/dev/null
python3 - "$IMAGE" "$SQSH" <<'PY' | write_record squashfs-result squashfs-result.json
import json, sys
print(json.dumps({"schema": "envlock.squashfs-result/v1",
  "image": {"reference": "registry.example.invalid/ml/shan-training@" + sys.argv[1],
            "manifest_digest": sys.argv[1], "platform": "linux/amd64"},
  "sqsh": {"file": "image.sqsh", "sha256": sys.argv[2], "size": 32}, "tree_digest": sys.argv[1],
  "producer": "envlock",
  "enroot": {"compatible_with": "4.1.2", "squash_options": "-comp lzo -noD -exit-on-error",
             "source_date_epoch": 0, "locale": "C.UTF-8"},
  "squashfs_tools": {"version": "4.5.1", "mksquashfs_arguments": ["-comp", "lzo"]},
  "superblock": {"block_size": 131072, "bytes_used": 32, "compression": "lzo", "flags": 0,
                 "fragment_count": 0, "id_count": 1, "inode_count": 1, "mkfs_time": 0, "version": "4.0"}}))
PY
mkdir -p results/nodes
cp hashed.json results/nodes/node1.json
"$V" --root root --check packages --sqsh image.sqsh --image-digest "$IMAGE" --format json -o results/nodes/node2.json >/dev/null
run_cmd c "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub signer.pub \
  --squashfs-result squashfs-result.json --results results
# Both reports ran offline (--root) and are unsigned: their links hold, but neither is evidence
# of a node that passed.
check_eq "$c_rc" 1 "every link holds, but offline unsigned reports: exit 1 ($c_out)"
check_contains "$c_out" "node2.json: links hold: lock ${LOCK_SHA:0:12}…, image ${IMAGE:0:19}…, .sqsh ${SQSH:0:12}…; node passed ($(field results/nodes/node2.json '"%d passed, %d failed, %d skipped" % (r["summary"]["passed"], r["summary"]["failed"], r["summary"]["skipped"])')); refused: ran offline (--root root): it checked an unpacked image, not the node and its GPUs" \
  "an offline (--root) report is refused as a passing node"
check_contains "$c_out" "3 of 3 records chain to provenance.dsse.json; 0 of 2 nodes passed (links holding, outcome pass, not refused); 2 refused as no evidence of a passing node; 2 unsigned reports not counted (--accept-unsigned counts them)" \
  "the summary: no node counted"
COUNTS=$(field hashed.json '"%d passed, %d failed, %d skipped" % (r["summary"]["passed"], r["summary"]["failed"], r["summary"]["skipped"])')
check_contains "$c_out" "node1.json: links hold: lock ${LOCK_SHA:0:12}…, image ${IMAGE:0:19}…, .sqsh ${SQSH:0:12}…; node passed ($COUNTS)" \
  "each report's links are named, with the node's outcome"
check_contains "$c_out" "squashfs-result.json: ok: image ${IMAGE:0:19}…, .sqsh ${SQSH:0:12}…" \
  "the squashfs result's links"

# A node whose links hold but whose checks failed (its image lacks a package the lock pins): its
# outcome is shown, the command fails.
cp -a root root3
rm -rf root3/opt/venv/lib/python3.12/site-packages/numpy-*.dist-info
"$V" --root root3 --check packages --lock root/etc/envlock/lock.json --sqsh image.sqsh \
  --image-digest "$IMAGE" --format json -o results/nodes/node3.json >/dev/null
COUNTS3=$(field results/nodes/node3.json '"%d passed, %d failed, %d skipped" % (r["summary"]["passed"], r["summary"]["failed"], r["summary"]["skipped"])')
check_contains "$COUNTS3" ", 1 failed," "node3's report fails one check of its own"
run_cmd c "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub signer.pub --results results
check_eq "$c_rc" 1 "a failed node whose links hold: exit 1"
check_contains "$c_out" "node3.json: links hold: lock ${LOCK_SHA:0:12}…, image ${IMAGE:0:19}…, .sqsh ${SQSH:0:12}…; node failed ($COUNTS3)" \
  "a failed node: its outcome beside the links"
check_contains "$c_out" "3 of 3 records chain to provenance.dsse.json; 0 of 3 nodes passed (links holding, outcome pass, not refused); 3 refused" \
  "the summary counts the nodes that passed"
run_cmd c "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub signer.pub --results results --format json
check_eq "$c_rc" 1 "--format json: the same exit code"
check_eq "$(printf '%s' "$c_out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["verdict"], d["chained"], d["nodes"], d["nodes_passed"], [(x["record"], x["links"], x["outcome"]) for x in d["records"]])')" \
  "fail 3 3 0 [('node1.json', 'hold', 'pass'), ('node2.json', 'hold', 'pass'), ('node3.json', 'hold', 'fail')]" \
  "--format json: the verdict, the counts and each record's outcome"
rm results/nodes/node3.json

# A node that ran another .sqsh, one that was not told its image, one of another lock.
printf 'another build\n' >other.sqsh
OTHER=$(sha256sum other.sqsh | cut -d' ' -f1)
"$V" --root root --check packages --sqsh other.sqsh --image-digest "$IMAGE" --format json -o results/nodes/node7.json >/dev/null
mkdir -p unrecorded && cp image.sqsh unrecorded/
"$V" --root root --check packages --sqsh unrecorded/image.sqsh --format json \
  -o results/nodes/node8.json >/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["expect"]["cuda"]="13.2"; json.dump(d, open("other.lock.json","w"))' root/etc/envlock/lock.json
"$V" --root root --lock other.lock.json --check packages --sqsh image.sqsh --image-digest "$IMAGE" \
  --format json -o results/nodes/node9.json >/dev/null
OTHER_LOCK=$(field results/nodes/node9.json 'r["lock_sha256"]')
check_ne "$OTHER_LOCK" "$LOCK_SHA" "node9 checked another lock"
run_cmd c "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub signer.pub --results results
check_eq "$c_rc" 1 "broken links: exit 1"
check_contains "$c_out" "node7.json: .sqsh sha256 ${OTHER:0:12}…: not the one provenance.dsse.json signs (${SQSH:0:12}…)" \
  "another .sqsh: named with both sha256s"
check_contains "$c_out" "node8.json: image digest not recorded" "no image digest: a broken link"
check_contains "$c_out" "node9.json: lock sha256 ${OTHER_LOCK:0:12}…: not the one provenance.dsse.json signs (${LOCK_SHA:0:12}…)" \
  "another lock: named first"
check_contains "$c_out" "2 of 5 records chain to provenance.dsse.json; 0 of 5 nodes passed" "the summary counts them"

# The signature must hold: another key's public half is refused.
"$ENVLOCK" keygen -o stranger >/dev/null
run_cmd s "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub stranger.pub hashed.json
check_eq "$s_rc" 1 "a provenance signed by another key: exit 1"
check_contains "$s_err" "not by stranger.pub" "the signer mismatch is named"

# ---- node verdicts as evidence: each signed with its node's own key, naming the node, its GPUs,
# the mode and the time. A live run of each node (the offline report with the facts a live run on
# that node records: its host name, its GPUs, its start), written by the report's own writer.
# as_node NAME CMD...: CMD on a host named NAME (a UTS namespace of its own), as on that node.
as_node() { unshare -u sh -c 'hostname "$0" && exec "$@"' "$@"; }
# live_report NODE STARTED GPU... > FILE
live_report() {
  python3 - hashed.json "$@" <<'PY' | write_record report /dev/stdout
import json, sys
report = json.load(open(sys.argv[1]))
node, started, gpus = sys.argv[2], sys.argv[3], sys.argv[4:]
report.update(mode="live", gpu_uuids=gpus)
report["run"].update(hostname=node, started_at=started, root="")
print(json.dumps(report))
PY
}
NOW=$(date -u +%Y-%m-%dT%H:%M:%SZ)
mkdir -p node-keys keys ev
for n in node1 node2 node3; do
  "$ENVLOCK" keygen --node -o "keys/$n.key" >"keys/$n.out" || fail "keygen --node $n" "$(cat "keys/$n.out")"
  cp "keys/$n.key.pub" "node-keys/$n.pub"
  live_report "$n" "$NOW" "GPU-$n-a" "GPU-$n-b" >"ev/$n.json"
done
check_contains "$(cat keys/node1.out)" "to $(hostname).pub in the folder \`envlock chain verify --node-keys\` reads" \
  "keygen --node: says where the public key goes"
for n in node1 node2 node3; do
  run_cmd v as_node "$n" "$ENVLOCK" attest verdict "ev/$n.json" --key "keys/$n.key" -o "ev/$n.dsse.json"
  check_eq "$v_rc" 0 "$n signs its own verdict ($v_err)"
done
check_contains "$v_err" "envlock: ev/node3.json: PASSED on node node3 (gpus), signed by key $(python3 -c 'import json; print(json.load(open("ev/node3.dsse.json"))["signatures"][0]["keyid"])')" \
  "attest verdict names the node and the mode"
check_eq "$(python3 -c 'import base64,json; p=json.loads(base64.b64decode(json.load(open("ev/node2.dsse.json"))["payload"]))["predicate"]["envlock"]; print(p["node"], p["gpus"], p["mode"], p["checkedAt"] == "'"$NOW"'")')" \
  "node2 ['GPU-node2-a', 'GPU-node2-b'] gpus True" "the verdict names the node, its GPUs, the mode and the time"
chain() { "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub signer.pub --node-keys node-keys "$@"; }
run_cmd c chain ev/node1.dsse.json ev/node2.dsse.json ev/node3.dsse.json
check_eq "$c_rc" 0 "three nodes' own verdicts: exit 0 ($c_out)"
check_contains "$c_out" "3 of 3 records chain to provenance.dsse.json; 3 of 3 nodes passed (links holding, outcome pass, not refused)" \
  "three nodes passed"

# Copies of one verdict are one node, not five.
mkdir -p copies && for i in 1 2 3 4 5; do cp ev/node1.dsse.json "copies/n$i.dsse.json"; done
run_cmd c chain copies/*.dsse.json
check_eq "$c_rc" 1 "five copies of one verdict: exit 1"
check_contains "$c_out" "n3.dsse.json: links hold: lock ${LOCK_SHA:0:12}…, image ${IMAGE:0:19}…, .sqsh ${SQSH:0:12}…; node passed ($COUNTS); refused: a copy of the verdict in n1.dsse.json, n2.dsse.json, n4.dsse.json, n5.dsse.json: one record per node, none counted" \
  "a copied verdict is refused, naming the copies"
check_contains "$c_out" "0 of 5 nodes passed (links holding, outcome pass, not refused); 5 refused as no evidence of a passing node" \
  "five copies: no node passed"

# A verdict of node1, signed by node2 (whose root can make its host name anything).
live_report node1 "$NOW" GPU-x >ev/forged-node1.json
as_node node1 "$ENVLOCK" attest verdict ev/forged-node1.json --key keys/node2.key -o ev/forged-node1.dsse.json 2>/dev/null
run_cmd c chain ev/forged-node1.dsse.json ev/node2.dsse.json
check_eq "$c_rc" 1 "a verdict signed by another node's key: exit 1"
check_contains "$c_out" "forged-node1.dsse.json: names node node1, but is signed by node2's key (node-keys/node2.pub): a node signs only its own verdict" \
  "a verdict whose node is not the key's node"
# Signed on the wrong host: attest verdict refuses a report made elsewhere.
run_cmd w as_node node2 "$ENVLOCK" attest verdict ev/node1.json --key keys/node2.key -o /dev/null
check_eq "$w_rc:$w_err" "2:envlock: error: ev/node1.json: made on node1, and this is node2: a node signs only the report of its own run" \
  "attest verdict: a node signs only its own report"

# A second, different verdict of node1 beside its first: a replay of an old run, or two runs.
live_report node1 "$NOW" GPU-node1-a GPU-node1-b >ev/node1-again.json
sed -i 's/"seconds": [0-9.]*/"seconds": 1/' ev/node1-again.json
as_node node1 "$ENVLOCK" attest verdict ev/node1-again.json --key keys/node1.key -o ev/node1-again.dsse.json 2>/dev/null
run_cmd c chain ev/node1.dsse.json ev/node1-again.dsse.json ev/node2.dsse.json
check_eq "$c_rc" 1 "two verdicts of one node: exit 1"
check_contains "$c_out" "; refused: node node1 also has node1.dsse.json: one record per node, none counted" \
  "a second verdict of one node refuses both"
check_contains "$c_out" "1 of 3 nodes passed" "only node2 counts"

# A verdict older than the provenance: a run before this image was built.
live_report node3 2026-11-30T22:00:00Z GPU-node3-a GPU-node3-b >ev/old-node3.json
as_node node3 "$ENVLOCK" attest verdict ev/old-node3.json --key keys/node3.key -o ev/old-node3.dsse.json 2>/dev/null
run_cmd c chain ev/old-node3.dsse.json
check_eq "$c_rc" 1 "a verdict older than the provenance: exit 1"
check_contains "$c_out" "refused: checked at 2026-11-30T22:00:00Z, before provenance.dsse.json's build finished (2026-11-30T23:02:11Z): a verdict of an earlier run" \
  "an old verdict is refused with both times"

# One GPU in two nodes' verdicts.
live_report node3 "$NOW" GPU-node1-a >ev/gpu-node3.json
as_node node3 "$ENVLOCK" attest verdict ev/gpu-node3.json --key keys/node3.key -o ev/gpu-node3.dsse.json 2>/dev/null
run_cmd c chain ev/node1.dsse.json ev/gpu-node3.dsse.json
check_eq "$c_rc" 1 "a GPU in two nodes: exit 1"
check_contains "$c_out" "node1.dsse.json: links hold: lock ${LOCK_SHA:0:12}…, image ${IMAGE:0:19}…, .sqsh ${SQSH:0:12}…; node passed ($COUNTS); refused: GPU GPU-node1-a is also in gpu-node3.dsse.json (node node3): a GPU is in one node" \
  "the GPU's first node is refused"
check_contains "$c_out" "refused: GPU GPU-node1-a is also in node1.dsse.json (node node1): a GPU is in one node" \
  "... and the second"

# An offline (--root) run, signed by the node: not a run on the node's GPUs.
python3 - hashed.json <<'PY' | write_record report ev/offline-node3.json
import json, sys
report = json.load(open(sys.argv[1]))
report["run"].update(hostname="node3")
print(json.dumps(report))
PY
as_node node3 "$ENVLOCK" attest verdict ev/offline-node3.json --key keys/node3.key -o ev/offline-node3.dsse.json 2>/dev/null
run_cmd c chain ev/offline-node3.dsse.json
check_eq "$c_rc" 1 "an offline verdict: exit 1"
check_contains "$c_out" "refused: ran offline (--root root): it checked an unpacked image, not the node and its GPUs" \
  "an offline (--root) verdict is refused as a passing node"

# The provenance's key is no node's key: a verdict signed with it, or a node-keys folder holding it.
chmod 600 signer
as_node node3 "$ENVLOCK" attest verdict ev/node3.json --key signer -o ev/prov-node3.dsse.json 2>/dev/null
run_cmd c chain ev/prov-node3.dsse.json
check_contains "$c_out" "prov-node3.dsse.json: signed with the provenance's key ($(python3 -c 'import json; print(json.load(open("ev/prov-node3.dsse.json"))["signatures"][0]["keyid"])')), not a node's own: a node signs its verdict with the key \`envlock keygen --node\` made on it" \
  "a verdict signed with the provenance key is refused"
mkdir -p bad-keys && cp signer.pub bad-keys/node9.pub
run_cmd c "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub signer.pub --node-keys bad-keys ev/node1.dsse.json
check_eq "$c_rc:$c_err" "2:envlock: error: bad-keys/node9.pub is the provenance's signing key (key $(python3 -c 'import json; print(json.load(open("ev/prov-node3.dsse.json"))["signatures"][0]["keyid"])')): a node signs with its own key (envlock keygen --node)" \
  "a node-keys folder holding the provenance key is refused"
run_cmd c "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub signer.pub ev/node1.dsse.json
check_contains "$c_out" "node1.dsse.json: a node verdict is checked with its node's own key: give --node-keys DIR (NODE.pub of each node)" \
  "without --node-keys, a verdict is not taken"
# The defaults: keygen --node writes /etc/envlock/node.key, attest verdict signs with it.
run_cmd k as_node node4 "$ENVLOCK" keygen --node
check_eq "$k_rc" 0 "keygen --node without -o: exit 0 ($k_err)"
check_contains "$k_out" "wrote /etc/envlock/node.key (private, mode 0600) and /etc/envlock/node.key.pub" \
  "keygen --node: the node's key in root's /etc/envlock"
check_contains "$k_out" "node node4: copy /etc/envlock/node.key.pub to node4.pub in the folder" "... for the node it runs on"
check_eq "$(stat -c '%a %U' /etc/envlock/node.key)" "600 root" "the node key: mode 0600, root's"
cp /etc/envlock/node.key.pub node-keys/node4.pub
live_report node4 "$NOW" GPU-node4-a >ev/node4.json
run_cmd d as_node node4 "$ENVLOCK" attest verdict ev/node4.json -o ev/node4.dsse.json
check_eq "$d_rc" 0 "attest verdict with the default key: exit 0 ($d_err)"
run_cmd c chain ev/node4.dsse.json ev/node2.dsse.json
check_contains "$c_out" "2 of 2 nodes passed" "... and it counts for node4"
# A key another user owns (and so could swap) is not used to sign.
uid=$(test_user envlock-chain)
cp keys/node1.key keys/theirs.key && chown envlock-chain keys/theirs.key
run_cmd u as_node node1 "$ENVLOCK" attest verdict ev/node1.json --key keys/theirs.key -o /dev/null
check_eq "$u_rc:$u_err" "2:envlock: error: keys/theirs.key: owned by uid $uid, not by the signer (uid 0): its owner could swap it, so it is no node's own key" \
  "a node key another user owns is refused"
# A node key others can read is not used to sign.
cp keys/node1.key keys/open.key && chmod 644 keys/open.key
run_cmd o as_node node1 "$ENVLOCK" attest verdict ev/node1.json --key keys/open.key -o /dev/null
check_eq "$o_rc:$o_err" "2:envlock: error: keys/open.key: mode 0644: others can read or write it, so it is no node's own key (chmod 600, or envlock keygen --node --force)" \
  "a node key others can read is refused"

# An unsigned report edited to pass: not counted, unless --accept-unsigned, which the output says.
live_report node3 "$NOW" GPU-node3-a GPU-node3-b >ev/unsigned-node3.json
# ... edited by hand to pass: a failed check set to pass, its summary to match.
python3 - ev/unsigned-node3.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["checks"][0].update(outcome="pass", reason="")
outcomes = [c["outcome"] for c in r["checks"]]
r["outcome"] = "pass"
r["summary"] = {k: outcomes.count(o) for k, o in (("passed", "pass"), ("failed", "fail"), ("skipped", "skip"))}
open(sys.argv[1], "w").write(json.dumps(r))
PY
run_cmd c chain ev/node1.dsse.json ev/unsigned-node3.json
check_eq "$c_rc" 1 "an unsigned report: not counted, exit 1"
check_contains "$c_out" "unsigned-node3.json: links hold: lock ${LOCK_SHA:0:12}…, image ${IMAGE:0:19}…, .sqsh ${SQSH:0:12}…; node passed" \
  "the unsigned report's links are checked"
check_contains "$c_out" "; not counted: an unsigned report is no evidence of the node (anyone can write one); --accept-unsigned counts it" \
  "... but it is not counted, and the output says why"
check_contains "$c_out" "1 of 2 nodes passed (links holding, outcome pass, not refused); 1 unsigned report not counted (--accept-unsigned counts them)" \
  "the summary names the unsigned report"
run_cmd c chain --accept-unsigned ev/node1.dsse.json ev/unsigned-node3.json
check_eq "$c_rc" 0 "--accept-unsigned: the report counts, exit 0 ($c_out)"
check_contains "$c_out" "2 of 2 nodes passed (links holding, outcome pass, not refused); 1 unsigned report accepted (--accept-unsigned), 1 of them counted" \
  "--accept-unsigned is said in the output"
run_cmd c chain --accept-unsigned --format json ev/node1.dsse.json ev/unsigned-node3.json
check_eq "$(printf '%s' "$c_out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["unsigned_accepted"], d["nodes_unsigned"], [(x["node"], x["signed"], x["counted"]) for x in d["records"]])')" \
  "True 1 [('node1', True, True), ('node3', False, True)]" "--format json: which records are signed and counted"
finish
