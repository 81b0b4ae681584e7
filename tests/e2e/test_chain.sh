# The chain from a node back to the manifest: envlock-verify records the image digest and the
# .sqsh sha256 it was given (--image-digest, --sqsh with the importer's record, a
# squashfs-result.json, or the file hashed), null with a reason when nothing gave them; `envlock
# chain verify` checks a signed provenance, a squashfs result and each report, naming the first
# broken link of each.
# Every record is made by envlock's own writers: the verifier's reports, and the records no command
# of this suite writes (the importer's record, the statement, the squashfs result) through
# envlock_write_record, which reads them with their readers first.
. "$REPO/tests/e2e/lib.sh"
need_tools python3 sha256sum
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
check_eq "$c_rc" 0 "every link holds: exit 0 ($c_out)"
COUNTS=$(field hashed.json '"%d passed, %d failed, %d skipped" % (r["summary"]["passed"], r["summary"]["failed"], r["summary"]["skipped"])')
check_contains "$c_out" "node1.json: links hold: lock ${LOCK_SHA:0:12}…, image ${IMAGE:0:19}…, .sqsh ${SQSH:0:12}…; node passed ($COUNTS)" \
  "each report's links are named, with the node's outcome"
check_contains "$c_out" "squashfs-result.json: ok: image ${IMAGE:0:19}…, .sqsh ${SQSH:0:12}…" \
  "the squashfs result's links"
check_contains "$c_out" "3 of 3 records chain to provenance.dsse.json; 2 of 2 nodes passed (links holding, outcome pass)" \
  "the summary line"

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
check_contains "$c_out" "3 of 3 records chain to provenance.dsse.json; 2 of 3 nodes passed (links holding, outcome pass)" \
  "the summary counts the nodes that passed"
run_cmd c "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub signer.pub --results results --format json
check_eq "$c_rc" 1 "--format json: the same exit code"
check_eq "$(printf '%s' "$c_out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["verdict"], d["chained"], d["nodes"], d["nodes_passed"], [(x["record"], x["links"], x["outcome"]) for x in d["records"]])')" \
  "fail 3 3 2 [('node1.json', 'hold', 'pass'), ('node2.json', 'hold', 'pass'), ('node3.json', 'hold', 'fail')]" \
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
check_contains "$c_out" "2 of 5 records chain to provenance.dsse.json; 2 of 5 nodes passed (links holding, outcome pass)" "the summary counts them"

# The signature must hold: another key's public half is refused.
"$ENVLOCK" keygen -o stranger >/dev/null
run_cmd s "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub stranger.pub hashed.json
check_eq "$s_rc" 1 "a provenance signed by another key: exit 1"
check_contains "$s_err" "not by stranger.pub" "the signer mismatch is named"
finish
