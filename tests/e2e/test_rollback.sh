# envlock rollback check against the Debian docker-registry on loopback (delete enabled) holding
# two images, the previous base image and the previous project image, and a real .sqsh made by
# envlock squashfs: everything there, then a .sqsh that differs, is cut short or is missing, a
# previous image deleted from the registry, a registry that does not answer, and bad input.
. "$REPO/tests/e2e/lib.sh"
reg_need
need_tools python3 sha256sum
need_fixture "$REPO/tests/data/handover/full/previous.lock.json"
E=$ENVLOCK

reg_start_plain || { fail "registry" "docker-registry did not start"; finish; }
reg_make_image base amd64 && reg_make_image train amd64 || { fail "images" "umoci"; finish; }
reg_push base "$REG_PLAIN/nvidia/pytorch:26.04-py3" && reg_push train "$REG_PLAIN/ml/train:core_v0.18.2" ||
  { fail "push" "skopeo copy"; finish; }
BASE=$(reg_digest "$REG_PLAIN/nvidia/pytorch:26.04-py3")
TRAIN=$(reg_digest "$REG_PLAIN/ml/train:core_v0.18.2")
check_contains "$BASE$TRAIN" "sha256:" "two images in the registry"

# The previous environment: its lock (the handover fixture's, pointed at this registry), its build
# result and its .sqsh with the squashfs result beside it.
mkdir -p prev
python3 - "$REPO/tests/data/handover/full/previous.lock.json" "$REG_PLAIN" "$BASE" <<'PY'
import json, sys
lock = json.load(open(sys.argv[1]))
reg, digest = sys.argv[2], sys.argv[3]
lock["base_image"].update({"reference": reg + "/nvidia/pytorch:26.04-py3", "name": reg + "/nvidia/pytorch",
                           "digest": digest, "platform_digest": digest,
                           "media_type": "application/vnd.oci.image.manifest.v1+json"})
lock["recipe"]["images"][0].update({"image": reg + "/nvidia/pytorch:26.04-py3", "digest": digest,
                                    "platform_digest": digest})
open("prev/old.lock.json", "w").write(json.dumps(lock, indent=2, sort_keys=True) + "\n")
PY
LOCK_SHA=$(sha256sum prev/old.lock.json | cut -d' ' -f1)
write_build_result() { # FILE PUSHED LOCK_SHA
  python3 - "$1" "$2" "$3" "$REG_PLAIN/ml/train" "$TRAIN" <<'PY'
import json, sys
out, pushed, lock_sha, repo, digest = sys.argv[1:6]
json.dump({"build_args": {}, "builder": {"name": "buildah", "version": "1.28.2"},
           "context_sha256": "0" * 64, "dockerfile_sha256": "1" * 64,
           "finished_at": "2026-11-30T23:02:11Z", "started_at": "2026-11-30T23:01:52Z",
           "image": {"digest": digest, "reference": repo + "@" + digest, "repository": repo,
                     "tag": "core_v0.18.2"},
           "lock_sha256": lock_sha, "log": {"path": "build-result.log", "sha256": "2" * 64},
           "pushed": pushed == "true", "schema": "envlock.build-result/v1",
           "source_date_epoch": 0}, open(out, "w"), indent=2, sort_keys=True)
PY
}
write_build_result prev/build-result.json true "$LOCK_SHA"
run_cmd s "$E" squashfs --image "$REG_PLAIN/ml/train@$TRAIN" --insecure-registry "$REG_PLAIN" \
  --source-date-epoch 0 -o prev/train.sqsh
check_eq "$s_rc" 0 "envlock squashfs wrote the previous .sqsh ($s_err)"
SQSH_SHA=$(sha256sum prev/train.sqsh | cut -d' ' -f1)
SQSH_SIZE=$(stat -c %s prev/train.sqsh)

# ---- everything is there
rb=("$E" rollback check --insecure-registry "$REG_PLAIN" --registry-attempts 1)
start=$(date +%s%N)
run_cmd r "${rb[@]}" --previous prev/old.lock.json -o report.json
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "figure: rollback check against a registry with 2 images: ${elapsed_ms} ms wall (3 checks, a ${SQSH_SIZE}-byte .sqsh hashed)"
check_eq "$r_rc" 0 "the previous environment can be retrieved: exit 0 ($r_err)"
check_eq "$(printf '%s\n' "$r_out" | tail -1)" "rollback to old.lock.json: ready (3 passed)" "the verdict"
check_eq "$(printf '%s\n' "$r_out" | sed -n 1p)" \
  "PASS  base_image  $REG_PLAIN/nvidia/pytorch@$BASE: served (application/vnd.oci.image.manifest.v1+json)" \
  "the base image's line"
check_contains "$r_out" "PASS  image       $REG_PLAIN/ml/train@$TRAIN: served" "the previous image's line"
check_contains "$r_out" "PASS  sqsh        prev/train.sqsh: sha256 $SQSH_SHA, $SQSH_SIZE bytes" "the .sqsh's line"
field() { python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); v=eval(sys.argv[2]); print("null" if v is None else v)' "$@"; }
check_eq "$(field report.json 'r["schema"], r["outcome"], r["summary"]')" \
  "('envlock.rollback-report/v1', 'pass', {'errors': 0, 'failed': 0, 'passed': 3})" "the JSON report"
run_cmd rf "${rb[@]}" --previous prev/old.lock.json --format json
check_eq "$rf_rc" 0 "--format json: exit 0 ($rf_err)"
check_eq "$(printf '%s' "$rf_out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["schema"], r["outcome"])')" \
  "envlock.rollback-report/v1 pass" "--format json: the JSON report on standard output"
check_eq "$(printf '%s\n' "$rf_err" | tail -1)" "rollback to old.lock.json: ready (3 passed)" "--format json: the table on standard error"
run_cmd rt "${rb[@]}" --previous prev/old.lock.json --format text -o table.txt
check_eq "$rt_rc:$(tail -1 table.txt)" "0:rollback to old.lock.json: ready (3 passed)" "--format text -o FILE: the table in the file"
check_eq "$(field report.json '[c["id"] for c in r["checks"]]')" \
  "['base_image', 'image', 'sqsh']" "one check per piece, in order; the recipe's FROM image and the squashed manifest are the same digests: not asked again"
check_eq "$(field report.json '[c["source"] for c in r["checks"]]')" \
  "['old.lock.json: base_image.digest', 'build-result.json: image.digest', 'train.squashfs-result.json: sqsh']" \
  "each check names its record"
check_eq "$(field report.json 'r["previous"]["lock_sha256"]')" "$LOCK_SHA" "the previous lock's sha256"
check_eq "$(field report.json 'r["previous"]["image"]')" "$REG_PLAIN/ml/train@$TRAIN" "the previous image"
check_eq "$(field report.json 'r["previous"]["sqsh"]')" "{'file': 'train.sqsh', 'sha256': '$SQSH_SHA'}" "the previous .sqsh"
check_eq "$(field report.json 'sorted(r["run"])')" "['checked_at', 'hostname', 'seconds']" "volatile facts in run"
run_cmd j "${rb[@]}" --previous prev/old.lock.json --lock "$REPO/tests/data/handover/full/envlock.lock.json" -o -
check_eq "$(printf '%s' "$j_out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["current"]["lock"])')" \
  "envlock.lock.json" "-o -: the report on standard output, with the current lock"
check_contains "$j_err" "rollback to old.lock.json: ready" "-o -: the table on standard error"
python3 - report.json <<'PY' >a.json
import json, sys; r = json.load(open(sys.argv[1])); del r["run"]; print(json.dumps(r, sort_keys=True))
PY
"${rb[@]}" --previous prev/old.lock.json -o again.json >/dev/null
python3 - again.json <<'PY' >b.json
import json, sys; r = json.load(open(sys.argv[1])); del r["run"]; print(json.dumps(r, sort_keys=True))
PY
check_eq "$(cat a.json)" "$(cat b.json)" "two runs differ only in run"

# ---- --pub: the previous image's signed provenance among its attestations in the registry
mkdir -p keys && "$E" keygen -o keys/ci >/dev/null && "$E" keygen -o keys/other >/dev/null
run_cmd v "${rb[@]}" --previous prev/old.lock.json --pub keys/ci.pub
check_eq "$v_rc" 1 "--pub, nothing attached: exit 1"
check_contains "$v_out" "FAIL  image.provenance  previous image $REG_PLAIN/ml/train@$TRAIN: no provenance attached (looked in tag sha256-${TRAIN#sha256:}); attach it with envlock attest push" \
  "no provenance attached: said, with where it was looked for"
cat > statement.json <<JSON
{"_type": "https://in-toto.io/Statement/v1",
 "subject": [{"name": "$REG_PLAIN/ml/train", "digest": {"sha256": "${TRAIN#sha256:}"}}],
 "predicateType": "https://slsa.dev/provenance/v1",
 "predicate": {"buildDefinition": {"buildType": "urn:envlock:build-type:container-image:v1",
   "externalParameters": {"lockFile": {"digest": {"sha256": "$LOCK_SHA"}}}}}}
JSON
"$E" provenance sign --key keys/other statement.json -o other.dsse.json >/dev/null
"$E" attest push --image "$REG_PLAIN/ml/train@$TRAIN" --insecure-registry "$REG_PLAIN" other.dsse.json >/dev/null
OTHER_ART=$(curl -s -H 'Accept: application/vnd.oci.image.index.v1+json' "http://$REG_PLAIN/v2/ml/train/manifests/sha256-${TRAIN#sha256:}" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["manifests"][0]["digest"])')
run_cmd v "${rb[@]}" --previous prev/old.lock.json --pub keys/ci.pub
check_eq "$v_rc" 1 "--pub, provenance signed by another key: exit 1"
check_contains "$v_out" "FAIL  image.provenance  previous image $REG_PLAIN/ml/train@$TRAIN: no attached provenance holds: attestation $OTHER_ART: signed by key $(python3 -c 'import json; print(json.load(open("other.dsse.json"))["signatures"][0]["keyid"])'), not by keys/ci.pub (key " \
  "another signer: named, with the artifact"
"$E" provenance sign --key keys/ci statement.json -o ci.dsse.json >/dev/null
"$E" attest push --image "$REG_PLAIN/ml/train@$TRAIN" --insecure-registry "$REG_PLAIN" ci.dsse.json >/dev/null
run_cmd v "${rb[@]}" --previous prev/old.lock.json --pub keys/ci.pub -o prov.json
check_eq "$v_rc" 0 "--pub, the signed provenance attached: exit 0 ($v_err)"
check_contains "$v_out" "PASS  image.provenance  $REG_PLAIN/ml/train@$TRAIN: signed provenance sha256:" "the signed provenance is found"
check_contains "$v_out" "of old.lock.json, from tag sha256-${TRAIN#sha256:}" "... of the previous lock, from the referrers tag"
check_eq "$(field prov.json '[(c["id"], c["outcome"]) for c in r["checks"]]')" \
  "[('base_image', 'pass'), ('image', 'pass'), ('image.provenance', 'pass'), ('sqsh', 'pass')]" "the report has the check"

# ---- a node-local .sqsh that differs, is cut short, or is missing
mkdir -p node-wrong node-short node-none
python3 -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[100]^=1; open(sys.argv[2],"wb").write(b)' prev/train.sqsh node-wrong/train.sqsh
WRONG=$(sha256sum node-wrong/train.sqsh | cut -d' ' -f1)
run_cmd w "${rb[@]}" --previous prev/old.lock.json --sqsh-dir node-wrong
check_eq "$w_rc" 1 "a .sqsh with other bytes fails: exit 1"
check_contains "$w_out" "FAIL  sqsh        previous .sqsh node-wrong/train.sqsh: sha256 $WRONG, train.squashfs-result.json records $SQSH_SHA" "the wrong .sqsh is named"
check_eq "$(printf '%s\n' "$w_out" | tail -1)" "rollback to old.lock.json: not ready (1 failed, 2 passed)" "not ready"
head -c 4096 prev/train.sqsh >node-short/train.sqsh
run_cmd t "${rb[@]}" --previous prev/old.lock.json --sqsh-dir node-short
check_contains "$t_out" "previous .sqsh node-short/train.sqsh: 4096 bytes, train.squashfs-result.json records $SQSH_SIZE" "a short copy is named"
run_cmd m "${rb[@]}" --previous prev/old.lock.json --sqsh-dir node-none
check_eq "$m_rc" 1 "a missing .sqsh fails: exit 1"
check_contains "$m_out" "previous .sqsh node-none/train.sqsh: not found (train.squashfs-result.json names train.sqsh)" "the missing .sqsh is named"

# ---- the previous image deleted from the registry (delete enabled)
check_eq "$(curl -s -o /dev/null -w '%{http_code}' -X DELETE "http://$REG_PLAIN/v2/ml/train/manifests/$TRAIN")" "202" "the registry deleted the previous image"
run_cmd d "${rb[@]}" --previous prev/old.lock.json -o deleted.json
check_eq "$d_rc" 1 "a deleted previous image fails: exit 1"
check_contains "$d_out" "FAIL  image       previous image $REG_PLAIN/ml/train@$TRAIN: 404 in the registry: it was deleted or garbage-collected" "the deleted image is named"
check_contains "$d_out" "PASS  base_image " "the base image is still there"
check_eq "$(field deleted.json '[(c["id"], c["outcome"]) for c in r["checks"]]')" \
  "[('base_image', 'pass'), ('image', 'fail'), ('sqsh', 'pass')]" \
  "the squashed manifest is the same digest: asked once"

# ---- a registry that does not answer: exit 3, the others still checked
DOWN=127.0.0.1:$(free_port)
sed "s#$REG_PLAIN/nvidia#$DOWN/nvidia#g" prev/old.lock.json >prev/down.lock.json
cp prev/build-result.json prev/b2.json
run_cmd x "$E" rollback check --previous prev/down.lock.json --previous-build-result prev/b2.json \
  --previous-squashfs-result prev/train.squashfs-result.json --insecure-registry "$DOWN" \
  --insecure-registry "$REG_PLAIN" --registry-attempts 1
check_contains "$x_out" "ERROR base_image      previous base image $DOWN/nvidia/pytorch@$BASE: cannot be checked: " "an unreachable registry is an error, not a 404"
check_contains "$x_out" "FAIL  image           previous image $REG_PLAIN/ml/train@$TRAIN: b2.json was built from another lock (lock_sha256 $LOCK_SHA), not from down.lock.json ($(sha256sum prev/down.lock.json | cut -d' ' -f1))" "the build result must name the previous lock"
check_contains "$x_out" "FAIL  image.squashed  previous image $REG_PLAIN/ml/train@$TRAIN: 404 in the registry: it was deleted or garbage-collected" "the squashed manifest is asked when the build result does not count"
check_eq "$(printf '%s\n' "$x_out" | tail -1)" "rollback to down.lock.json: not ready (2 failed, 1 passed, 1 not checked)" "the verdict counts what was not checked"
check_eq "$x_rc" 1 "a failed piece decides over one not checked: exit 1"
write_build_result prev/b3.json true "$(sha256sum prev/down.lock.json | cut -d' ' -f1)"
reg_push train "$REG_PLAIN/ml/train:core_v0.18.2" >/dev/null
run_cmd y "$E" rollback check --previous prev/down.lock.json --previous-build-result prev/b3.json \
  --previous-squashfs-result prev/train.squashfs-result.json --insecure-registry "$DOWN" \
  --insecure-registry "$REG_PLAIN" --registry-attempts 1
check_eq "$y_rc" 3 "nothing failed but a piece could not be checked: exit 3"
check_eq "$(printf '%s\n' "$y_out" | tail -1)" "rollback to down.lock.json: unknown (1 not checked, 2 passed)" "the verdict says unknown"

# ---- records that are not there, or say the image cannot come back
mkdir -p bare && cp prev/old.lock.json bare/
run_cmd n "${rb[@]}" --previous bare/old.lock.json
check_eq "$n_rc" 1 "no build or squashfs result: exit 1"
check_contains "$n_out" "FAIL  image       previous image: no build-result.json or squashfs-result.json beside old.lock.json; give --previous-build-result or --previous-squashfs-result" "the missing records are named"
check_contains "$n_out" "FAIL  sqsh        previous .sqsh: no squashfs-result.json beside old.lock.json; give --previous-squashfs-result" "the missing .sqsh record is named"
write_build_result bare/build-result.json false "$LOCK_SHA"
run_cmd p "${rb[@]}" --previous bare/old.lock.json
check_contains "$p_out" "previous image $REG_PLAIN/ml/train@$TRAIN: build-result.json says it was not pushed (pushed: false): the registry cannot give it back" "an image never pushed is named"

# ---- bad input: exit 2
run_cmd b "${rb[@]}" --previous nowhere.lock.json
check_eq "$b_rc" 2 "a missing previous lock: exit 2"
check_contains "$b_err" "envlock: error: nowhere.lock.json: " "the missing lock is named"
run_cmd b "${rb[@]}" --previous prev/old.lock.json --previous-squashfs-result gone.json
check_eq "$b_rc:$b_err" "2:envlock: error: --previous-squashfs-result gone.json: no such file" "a result given that does not exist"
run_cmd b "${rb[@]}" --previous prev/old.lock.json --sqsh-dir prev/train.sqsh
check_eq "$b_rc:$b_err" "2:envlock: error: --sqsh-dir prev/train.sqsh: not a folder" "--sqsh-dir must be a folder"
python3 -c 'import json; d=json.load(open("prev/old.lock.json")); d["base_image"]["digets"]=1; json.dump(d, open("bad.lock.json","w"))'
run_cmd b "${rb[@]}" --previous bad.lock.json
check_eq "$b_rc:$b_err" "2:envlock: error: bad.lock.json: base_image: unknown key 'digets'; did you mean 'digest'?" "a malformed lock is refused"
finish
