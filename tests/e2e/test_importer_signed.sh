# envlock-importer with `require_signed: true`: the image a lock builds is served only when its
# provenance, signed by the configured key, is beside the lock or attached to the image in its
# registry (fetched by the image's digest with `envlock attest fetch`, against the real
# docker-registry on loopback: the referrers tag schema). Refused, with the reason word for word,
# when nothing is attached, when what is attached was signed by another key, and (without
# require_signed) when the registry would have it but nothing lies beside the lock.
. "$REPO/tests/e2e/lib.sh"
reg_need
need_tools python3 sha256sum mksquashfs
IMPORTER=${ENVLOCK_IMPORTER:-$(dirname "$ENVLOCK")/envlock-importer}
[ -x "$IMPORTER" ] || { fail "envlock-importer" "no envlock-importer binary at $IMPORTER"; finish; }
reg_start_plain || { fail "registry" "docker-registry did not start"; finish; }
reg_make_image train amd64 && reg_push train "$REG_PLAIN/ml/train:v1" || { fail "image" "umoci, skopeo"; finish; }
D=$(reg_digest "$REG_PLAIN/ml/train:v1")
HEX=${D#sha256:}
E=1700000000
OPTS="-comp lzo -noD -exit-on-error"

# The lock: it builds $REG_PLAIN/ml/train:v1, which build-result.json beside it records as pushed.
mkdir -p locks keys cache ref
python3 - "$REPO/tests/data/verify/lock.json" locks/train.lock.json "$REG_PLAIN" "$D" <<'PY'
import json, sys
template, out, reg, digest = sys.argv[1:5]
d = json.load(open(template))
d["base_image"] = {"digest": digest, "media_type": "application/vnd.oci.image.manifest.v1+json",
                   "name": reg + "/ml/base", "platform": "linux/amd64", "platform_digest": digest,
                   "reference": reg + "/ml/base:v0", "tag": "v0"}
d["image"] = {"name": "train", "repository": reg + "/ml/train", "tag": "v1"}
d["enroot"] = {"source_date_epoch": 1700000000, "squash_options": "-comp lzo -noD -exit-on-error"}
d["expect"].pop("host", None)
json.dump(d, open(out, "w"), indent=2, sort_keys=True)
PY
mkdir -p empty
"$ENVLOCK_VERIFY" --lock locks/train.lock.json --root empty --check image --format json -o lock-report.json >/dev/null
LOCK_SHA=$(python3 -c 'import json; print(json.load(open("lock-report.json"))["lock_sha256"])')
python3 - locks/build-result.json "$LOCK_SHA" "$REG_PLAIN/ml/train" "$D" <<'PY'
import json, sys
out, lock_sha, repo, digest = sys.argv[1:5]
json.dump({"build_args": {}, "builder": {"name": "buildah", "version": "1.28.2"},
           "context_sha256": "0" * 64, "dockerfile_sha256": "1" * 64,
           "finished_at": "2026-11-30T23:02:11Z", "started_at": "2026-11-30T23:01:52Z",
           "image": {"digest": digest, "reference": repo + "@" + digest, "repository": repo, "tag": "v1"},
           "lock_sha256": lock_sha, "log": {"path": "build-result.log", "sha256": "2" * 64},
           "pushed": True, "schema": "envlock.build-result/v1", "source_date_epoch": 1700000000},
          open(out, "w"), indent=2, sort_keys=True)
PY
# The .sqsh the import will make (the same envlock squashfs run, so the same bytes) and the
# provenance that names it.
run_cmd s "$ENVLOCK" squashfs --image "$REG_PLAIN/ml/train@$D" --insecure-registry "$REG_PLAIN" \
  --squash-options="$OPTS" --source-date-epoch $E -o ref/train.sqsh
check_eq "$s_rc" 0 "envlock squashfs made the reference .sqsh ($s_err)"
SQSH_SHA=$(sha256sum ref/train.sqsh | cut -d' ' -f1)
cat > statement.json <<JSON
{"_type": "https://in-toto.io/Statement/v1",
 "subject": [{"name": "$REG_PLAIN/ml/train", "digest": {"sha256": "$HEX"}},
             {"name": "train.sqsh", "digest": {"sha256": "$SQSH_SHA"}}],
 "predicateType": "https://slsa.dev/provenance/v1",
 "predicate": {"buildDefinition": {"buildType": "urn:envlock:build-type:container-image:v1",
   "externalParameters": {"lockFile": {"digest": {"sha256": "$LOCK_SHA"}}}}}}
JSON
"$ENVLOCK" keygen -o keys/ci >/dev/null && "$ENVLOCK" keygen -o keys/other >/dev/null
"$ENVLOCK" provenance sign --key keys/ci statement.json -o ci.dsse.json >/dev/null
"$ENVLOCK" provenance sign --key keys/other statement.json -o other.dsse.json >/dev/null
keyid() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["signatures"][0]["keyid"])' "$1"; }

config() { # EXTRA YAML LINES
  cat > importer.yaml <<Y
locks: [$WORK/locks]
cache: $WORK/cache
public_key: $WORK/keys/ci.pub
registry:
  insecure: [$REG_PLAIN]
$1
Y
}
# get: envlock-importer outside a Slurm job, with this configuration.
get() {
  env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin TMPDIR="$WORK" \
    HOME="$WORK" ENVLOCK_IMPORTER_CONFIG="$WORK/importer.yaml" "$IMPORTER" get "docker://$REG_PLAIN#ml/train:v1" </dev/null
}
err_line() { printf '%s\n' "$1" | grep '^envlock: error: ' | tail -1; }

# ---- require_signed, nothing attached: refused, and why
config "require_signed: true"
run_cmd a get
check_eq "$a_rc:$a_out" "1:" "nothing attached: exit 1, no path"
check_eq "$(err_line "$a_err")" "envlock: error: no signed provenance for $WORK/locks/train.lock.json: none beside the lock (looked for $WORK/locks/provenance.dsse.json), and envlock attest fetch: $REG_PLAIN/ml/train@$D: no provenance attestation (looked in tag sha256-$HEX); require_signed is set in $WORK/importer.yaml" \
  "the reason, word for word"

# ---- attached, but signed by another key
"$ENVLOCK" attest push --image "$REG_PLAIN/ml/train@$D" --insecure-registry "$REG_PLAIN" other.dsse.json >/dev/null
OTHER_ART=sha256:$(curl -s -H 'Accept: application/vnd.oci.image.index.v1+json' "http://$REG_PLAIN/v2/ml/train/manifests/sha256-$HEX" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["manifests"][0]["digest"][7:])')
run_cmd b get
check_eq "$b_rc:$b_out" "1:" "signed by another key: exit 1, no path"
check_eq "$(err_line "$b_err")" "envlock: error: no signed provenance for $WORK/locks/train.lock.json: none beside the lock (looked for $WORK/locks/provenance.dsse.json), and none of the 1 attached to the image holds: $REG_PLAIN/ml/train@$D attestation $OTHER_ART: signed by key $(keyid other.dsse.json), not by $WORK/keys/ci.pub (key $(keyid ci.dsse.json))" \
  "the other signer is named, with the artifact"

# ---- the provenance signed by the configured key attached too: imported and checked against it
"$ENVLOCK" attest push --image "$REG_PLAIN/ml/train@$D" --insecure-registry "$REG_PLAIN" ci.dsse.json >/dev/null
run_cmd c get
check_eq "$c_rc" 0 "the signed provenance attached: exit 0 ($(err_line "$c_err"))"
check_eq "$(sha256sum < "$c_out" | cut -c1-64)" "$SQSH_SHA" "the .sqsh served has the sha256 the provenance names"
check_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["expected_from"])' "$c_out.json")" \
  "$REG_PLAIN/ml/train@$D attestation sha256:$(curl -s -H 'Accept: application/vnd.oci.image.index.v1+json' "http://$REG_PLAIN/v2/ml/train/manifests/sha256-$HEX" | python3 -c 'import json,sys; print(json.load(sys.stdin)["manifests"][1]["digest"][7:])') (signed by $(keyid ci.dsse.json))" \
  "the image record says which attestation it was checked against"
run_cmd c2 get
check_eq "$c2_rc:$c2_out" "0:$c_out" "a cached get: checked again, the same path"

# ---- without require_signed, the registry is not asked: the key alone wants the file beside the lock
config ""
run_cmd d get
check_eq "$d_rc" 1 "public_key alone, nothing beside the lock: exit 1"
check_eq "$(err_line "$d_err")" "envlock: error: no signed provenance for $WORK/locks/train.lock.json (looked for $WORK/locks/provenance.dsse.json); a public key is configured in $WORK/importer.yaml" \
  "the file beside the lock is what counts"

# ---- require_signed needs a key
cat > importer.yaml <<Y
locks: [$WORK/locks]
cache: $WORK/cache
require_signed: true
Y
run_cmd e get
check_eq "$e_rc" 2 "require_signed without public_key: exit 2"
check_contains "$e_err" "$WORK/importer.yaml:3:17: 'require_signed' needs 'public_key': the key the images' provenance must be signed by" \
  "the configuration error is located"
finish
