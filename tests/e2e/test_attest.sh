# envlock attest: the signed provenance, the SBOM and a node's signed verdict pushed as OCI
# artifacts of an image, against the real docker-registry (no referrers API: the referrers tag
# schema, two pushers at once) and a small server with the referrers API (referrers_server.py);
# fetched bytes equal pushed bytes, and the fetched envelope verifies with python3-securesystemslib
# and the public key `envlock keygen` wrote, not with envlock. `chain verify` takes the verdict.
. "$REPO/tests/e2e/lib.sh"
reg_need
need_tools openssl od cmp /usr/bin/python3
/usr/bin/python3 -c 'import securesystemslib.signer' 2>/dev/null ||
  { fail "securesystemslib" "python3-securesystemslib is missing (scripts/install-deps.sh)"; finish; }
cd "$WORK"
reg_start_plain
reg_make_image app amd64 && reg_push app "$REG_PLAIN/team/app:v1"
DIGEST=$(reg_digest "$REG_PLAIN/team/app:v1")
IMAGE=$REG_PLAIN/team/app@$DIGEST
HEX=${DIGEST#sha256:}

# ---- the files: a signed provenance, an SBOM, a node's signed verdict
mkdir keys
"$ENVLOCK" keygen -o keys/key >/dev/null
LOCK_SHA=$(printf lock | sha256sum | cut -d' ' -f1)
SQSH_SHA=$(printf sqsh | sha256sum | cut -d' ' -f1)
cat > provenance.json <<JSON
{"_type": "https://in-toto.io/Statement/v1",
 "subject": [{"name": "$REG_PLAIN/team/app", "digest": {"sha256": "$HEX"}},
             {"name": "image.sqsh", "digest": {"sha256": "$SQSH_SHA"}}],
 "predicateType": "https://slsa.dev/provenance/v1",
 "predicate": {"buildDefinition": {"buildType": "urn:envlock:build-type:container-image:v1",
   "externalParameters": {"lockFile": {"digest": {"sha256": "$LOCK_SHA"}}}},
  "runDetails": {"metadata": {"finishedOn": "2026-11-30T18:00:00Z"}}}}
JSON
"$ENVLOCK" provenance sign --key keys/key provenance.json -o provenance.dsse.json >/dev/null
/usr/bin/python3 "$REPO/tests/e2e/lib/sbom_rootfs.py" tree 8 12
"$ENVLOCK" sbom --root tree -o sbom.cdx.json 2>/dev/null
# A node's report as envlock-verify writes it: docs/formats/report.md's example (which the unit
# tests read and write back byte for byte), naming this image, passing with one check skipped.
/usr/bin/python3 - "$REPO/docs/formats/report.md" "$LOCK_SHA" "$DIGEST" "$SQSH_SHA" > report.json <<'PY'
import json, re, sys
page, lock, digest, sqsh = sys.argv[1:]
report = json.loads(re.search(r"```json\n(.*?)```", open(page).read(), re.S).group(1))
report.update(lock_sha256=lock, image_digest=digest, sqsh_sha256=sqsh, outcome="pass")
for check in report["checks"]:
    if check["outcome"] == "fail":
        check.update(outcome="pass", reason="")
outcomes = [c["outcome"] for c in report["checks"]]
report["summary"] = {k: outcomes.count(o) for k, o in
                     (("passed", "pass"), ("failed", "fail"), ("skipped", "skip"))}
print(json.dumps(report, indent=2, sort_keys=True))
PY
# Signed on the node the report names (node001: a host name of its own) with that node's key.
need_tools unshare hostname
"$ENVLOCK" keygen --node -o keys/node001.key >/dev/null
mkdir node-keys && cp keys/node001.key.pub node-keys/node001.pub
run_cmd vd unshare -u sh -c 'hostname node001 && exec "$@"' sh "$ENVLOCK" attest verdict report.json \
  --key keys/node001.key -o node.dsse.json
check_eq "$vd_rc" 0 "attest verdict: exit 0 ($vd_err)"
check_contains "$vd_err" "envlock: report.json: WARNED on node node001 (gpus), signed by key " "the verdict: WARNED (a check was skipped)"

# ---- docker-registry 2.8: no referrers API, so the tag schema
run_cmd p "$ENVLOCK" attest push --image "$IMAGE" provenance.dsse.json sbom.cdx.json node.dsse.json
check_eq "$p_rc" 0 "attest push to docker-registry: exit 0 ($p_err)"
check_contains "$p_out" "pushed provenance.dsse.json (provenance) as $REG_PLAIN/team/app@sha256:" "provenance pushed"
check_contains "$p_out" "listed in tag sha256-$HEX (the registry has no referrers API)" "listed in the referrers tag"
check_eq "$(grep -c '^pushed ' <<<"$p_out")" 3 "three artifacts pushed"
index() { curl -s -H 'Accept: application/vnd.oci.image.index.v1+json' "http://$1/v2/$2/manifests/sha256-$3"; }
types=$(index "$REG_PLAIN" team/app "$HEX" | /usr/bin/python3 -c 'import json,sys
d = json.load(sys.stdin)
print(d["mediaType"], len(d["manifests"]), " ".join(sorted(m["artifactType"] for m in d["manifests"])))')
check_eq "$types" "application/vnd.oci.image.index.v1+json 3 application/vnd.cyclonedx+json application/vnd.dsse.envelope.v1+json application/vnd.dsse.envelope.v1+json" \
  "the tag holds an image index of the three, with their artifactType"
art=$(index "$REG_PLAIN" team/app "$HEX" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["manifests"][0]["digest"])')
subject=$(curl -s -H 'Accept: application/vnd.oci.image.manifest.v1+json' "http://$REG_PLAIN/v2/team/app/manifests/$art" |
  /usr/bin/python3 -c 'import json,sys; d = json.load(sys.stdin); print(d["subject"]["digest"], d["config"]["mediaType"])')
check_eq "$subject" "$DIGEST application/vnd.oci.empty.v1+json" "an artifact: subject the image, the empty config"

run_cmd l "$ENVLOCK" attest list "$IMAGE"
check_contains "$l_out" "$IMAGE: 3 attestations (from tag sha256-$HEX)" "list: three, from the tag"
run_cmd f "$ENVLOCK" attest fetch "$IMAGE" --type provenance -o fetched.dsse.json
check_eq "$f_rc" 0 "fetch --type provenance: exit 0 ($f_err)"
cmp -s fetched.dsse.json provenance.dsse.json && ok "fetched bytes equal pushed bytes" || fail "fetched bytes" "differ"
"$ENVLOCK" attest fetch "$IMAGE" --dir all >/dev/null
cmp -s all/sbom.cdx.json sbom.cdx.json && cmp -s all/node.dsse.json node.dsse.json &&
  ok "fetch --dir: every file, byte for byte" || fail "fetch --dir" "$(ls all)"

# ---- a tool that is not envlock checks the fetched envelope
PUB=$(openssl pkey -pubin -in keys/key.pub -outform DER | tail -c 32 | od -An -tx1 | tr -d ' \n')
run_cmd s /usr/bin/python3 "$REPO/tests/e2e/lib/dsse_check.py" fetched.dsse.json "$PUB"
check_eq "$s_rc" 0 "securesystemslib verifies the fetched provenance ($s_out)"
check_contains "$s_out" "verified $(/usr/bin/python3 -c 'import json; print(json.load(open("fetched.dsse.json"))["signatures"][0]["keyid"])')" "... by the keygen key"
run_cmd x /usr/bin/python3 "$REPO/tests/e2e/lib/dsse_check.py" fetched.dsse.json "$PUB" flip
check_eq "$x_rc" 1 "a flipped payload byte fails there ($x_out)"
"$ENVLOCK" attest fetch "$IMAGE" --type node -o fetched-node.dsse.json 2>/dev/null
NODE_PUB=$(openssl pkey -pubin -in keys/node001.key.pub -outform DER | tail -c 32 | od -An -tx1 | tr -d ' \n')
run_cmd sn /usr/bin/python3 "$REPO/tests/e2e/lib/dsse_check.py" fetched-node.dsse.json "$NODE_PUB"
check_eq "$sn_rc" 0 "... and the node verdict verifies too, with the node's key"

# ---- pushing the same files again changes nothing
"$ENVLOCK" attest push --image "$IMAGE" provenance.dsse.json >/dev/null 2>&1
check_eq "$(index "$REG_PLAIN" team/app "$HEX" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["manifests"]))')" 3 \
  "the same file again: still three (no duplicate)"

# ---- two pushers at once, three files each, on another image: all six listed
reg_make_image other amd64 && reg_push other "$REG_PLAIN/team/other:v1"
ODIGEST=$(reg_digest "$REG_PLAIN/team/other:v1")
for i in 1 2 3 4 5 6; do SOURCE_DATE_EPOCH=$((1700000000 + i)) "$ENVLOCK" sbom --root tree -o "c$i.cdx.json" 2>/dev/null; done
"$ENVLOCK" attest push --image "$REG_PLAIN/team/other@$ODIGEST" c1.cdx.json c2.cdx.json c3.cdx.json >one.out 2>&1 &
P1=$!
"$ENVLOCK" attest push --image "$REG_PLAIN/team/other@$ODIGEST" c4.cdx.json c5.cdx.json c6.cdx.json >two.out 2>&1 &
P2=$!
wait $P1; r1=$?; wait $P2; r2=$?
check_eq "$r1:$r2" "0:0" "two pushers at once: both exit 0 ($(cat one.out two.out | tail -2))"
check_eq "$(index "$REG_PLAIN" team/other "${ODIGEST#sha256:}" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["manifests"]))')" 6 \
  "the tag lists all six: no writer lost another's"

# ---- the referrers API (a server that has it)
port=$(free_port)
bg /usr/bin/python3 "$REPO/tests/e2e/referrers_server.py" --port "$port" --log "$WORK/api.log"
wait_until 100 curl -sf -o /dev/null "http://127.0.0.1:$port/v2/"
API=127.0.0.1:$port
cfg='{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[]}}'
cfgd=sha256:$(printf %s "$cfg" | sha256sum | cut -d' ' -f1)
loc=$(curl -s -D - -o /dev/null -X POST "http://$API/v2/team/app/blobs/uploads/" | sed -n 's/^Location: //p' | tr -d '\r')
curl -s -o /dev/null -X PUT --data-binary "$cfg" "http://$API$loc&digest=$cfgd"
man="{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"config\":{\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\"$cfgd\",\"size\":${#cfg}},\"layers\":[]}"
ADIGEST=sha256:$(printf %s "$man" | sha256sum | cut -d' ' -f1)
curl -s -o /dev/null -X PUT -H 'Content-Type: application/vnd.oci.image.manifest.v1+json' --data-binary "$man" "http://$API/v2/team/app/manifests/v1"
run_cmd ap "$ENVLOCK" attest push --image "$API/team/app@$ADIGEST" provenance.dsse.json sbom.cdx.json node.dsse.json
check_eq "$ap_rc" 0 "attest push to a registry with the referrers API: exit 0 ($ap_err)"
check_eq "$(grep -c 'listed by the referrers API' <<<"$ap_out")" 3 "all three listed by the referrers API"
check_eq "$(curl -s -o /dev/null -w '%{http_code}' "http://$API/v2/team/app/manifests/sha256-${ADIGEST#sha256:}")" 404 "no referrers tag is made there"
run_cmd al "$ENVLOCK" attest list "$API/team/app@$ADIGEST"
check_contains "$al_out" "$API/team/app@$ADIGEST: 3 attestations (from the referrers API)" "list: three, from the API (two pages)"
check_contains "$(cat api.log)" "/referrers/$ADIGEST?start=2 200" "the second page was asked for"
"$ENVLOCK" attest fetch "$API/team/app@$ADIGEST" --type sbom -o api-sbom.cdx.json 2>/dev/null
cmp -s api-sbom.cdx.json sbom.cdx.json && ok "API path: fetched bytes equal pushed bytes" || fail "API fetch" "differ"

# ---- chain verify takes the signed verdict as the node's record
run_cmd c "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub keys/key.pub --node-keys node-keys fetched-node.dsse.json
check_eq "$c_rc" 0 "chain verify with the verdict: exit 0 ($c_out $c_err)"
check_contains "$c_out" "fetched-node.dsse.json: links hold: lock ${LOCK_SHA:0:12}…, image ${DIGEST:0:19}…, .sqsh ${SQSH_SHA:0:12}…; node passed (3 passed, 0 failed, 1 skipped)" \
  "the verdict's links hold, and its result"
/usr/bin/python3 - <<'PY'
import base64, json
d = json.load(open("node.dsse.json"))
p = base64.b64decode(d["payload"]).replace(b"WARNED", b"PASSED")
d["payload"] = base64.b64encode(p).decode()
open("forged.dsse.json", "w").write(json.dumps(d, indent=2, sort_keys=True) + "\n")
PY
run_cmd cf "$ENVLOCK" chain verify --provenance provenance.dsse.json --pub keys/key.pub --node-keys node-keys forged.dsse.json
check_eq "$cf_rc" 1 "a forged verdict: exit 1"
check_contains "$cf_out" "forged.dsse.json: signature check failed" "... named, as a broken link"

# ---- the referrers listing is bounded as a whole, and each artifact is fetched once
# The same three artifacts under dups/app, which lists each of them three times.
loc=$(curl -s -D - -o /dev/null -X POST "http://$API/v2/dups/app/blobs/uploads/" | sed -n 's/^Location: //p' | tr -d '\r')
curl -s -o /dev/null -X PUT --data-binary "$cfg" "http://$API$loc&digest=$cfgd"
curl -s -o /dev/null -X PUT -H 'Content-Type: application/vnd.oci.image.manifest.v1+json' --data-binary "$man" "http://$API/v2/dups/app/manifests/v1"
"$ENVLOCK" attest push --image "$API/dups/app@$ADIGEST" provenance.dsse.json sbom.cdx.json node.dsse.json >/dev/null 2>&1
check_eq "$(curl -s "http://$API/v2/dups/app/referrers/$ADIGEST" | /usr/bin/python3 -c 'import json,sys; print(len(json.load(sys.stdin)["manifests"]))')" 2 \
  "dups/app: the server's first page (two a page) lists duplicates"
run_cmd dl "$ENVLOCK" attest list "$API/dups/app@$ADIGEST"
check_contains "$dl_out" "$API/dups/app@$ADIGEST: 3 attestations (from the referrers API)" \
  "nine listed entries, three artifacts: each digest listed once"
: >"$WORK/api.log"
"$ENVLOCK" attest fetch "$API/dups/app@$ADIGEST" --dir dups >/dev/null 2>&1
check_eq "$(grep -c '^GET /v2/dups/app/manifests/sha256:' "$WORK/api.log")" 3 "fetch --dir: each artifact's manifest fetched once"
check_eq "$(ls dups | wc -l)" 3 "fetch --dir: three files"
# A listing that goes on for ever, one too long, one too large: each stops at its limit.
run_cmd fp "$ENVLOCK" attest list "$API/faults/pages@$ADIGEST"
check_eq "$fp_rc:$fp_err" "3:envlock: error: GET http://$API/v2/faults/pages/referrers/$ADIGEST?start=64: the referrers listing is over its limit of 64 pages (docs/manual/attest.md)" \
  "endless pages: the page limit, with the URL"
check_eq "$(grep -c "^GET /v2/faults/pages/referrers/" "$WORK/api.log")" 64 "... after 64 pages"
run_cmd fe "$ENVLOCK" attest list "$API/faults/entries@$ADIGEST"
check_eq "$fe_rc:$fe_err" "3:envlock: error: GET http://$API/v2/faults/entries/referrers/$ADIGEST: the referrers listing is over its limit of 1000 entries (docs/manual/attest.md)" \
  "1,500 entries: the entry limit"
run_cmd fb "$ENVLOCK" attest list "$API/faults/bytes@$ADIGEST"
check_eq "$fb_rc:$fb_err" "3:envlock: error: GET http://$API/v2/faults/bytes/referrers/$ADIGEST?start=5: the referrers listing is over its limit of 16777216 bytes (docs/manual/attest.md)" \
  "pages of 3 MB: the byte limit, at the sixth page"
finish
