# envlock provenance, keygen, provenance sign and provenance verify: a real image in a
# docker-registry on loopback, a real lock, a build-result.json written by hand for that image
# (the real build is test_build's), OpenSSL's own view of the keys, and tampered envelopes.
. "$REPO/tests/e2e/lib.sh"
need_tools git skopeo umoci docker-registry curl python3 sha256sum openssl
FIXTURE=$REPO/tests/data/megatron-lm/core_v0.19.0
need_fixture "$FIXTURE/uv.lock"

reg_start_plain || skip "docker-registry did not start"
REG=$REG_PLAIN
umoci init --layout img >/dev/null
umoci new --image img:base >/dev/null
umoci config --image img:base --os linux --architecture amd64 --config.cmd /bin/sh >/dev/null
umoci config --image img:base --config.label built=yes --tag built >/dev/null
skopeo copy -q --dest-tls-verify=false oci:img:base "docker://$REG/nvidia/pytorch:26.06-py3"
skopeo copy -q --dest-tls-verify=false oci:img:built "docker://$REG/ml/train:v1"
DIGEST=$(reg_digest "$REG/ml/train:v1")
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d=d[int(k)] if isinstance(d,list) else d[k]
print(d)' "$@"; }

# ---- a project and its lock, as test_lock.sh makes them
mkdir -p proj && cd proj
git_make_repo megatron
cp "$FIXTURE/uv.lock" "$FIXTURE/pyproject.toml" . && chmod u+w uv.lock pyproject.toml
cat > envlock.yaml <<YAML
envlock: 1
image: {name: ml/train, tag: v1, repository: $REG/ml/train}
base: {image: "$REG/nvidia/pytorch:26.06-py3"}
sources:
  megatron: {git: megatron, ref: v2}
python:
  uv: {version: 0.7.2}
enroot: {source_date_epoch: 1700000000}
YAML
run_cmd r "$ENVLOCK" lock --insecure-registry "$REG"
check_eq "$r_rc" 0 "lock: exit 0 ($r_err)"

# ---- build-result.json for the pushed image, by hand (docs/formats/build-result.md)
write_result() { # FILE LOG_TEXT STARTED FINISHED
  printf '%s' "$2" > "$(dirname "$1")/build.log"
  python3 - "$1" "$DIGEST" "$REG/ml/train" "$(sha256sum envlock.lock.json | cut -d' ' -f1)" \
    "$(sha256sum "$(dirname "$1")/build.log" | cut -d' ' -f1)" "$3" "$4" <<'PY'
import json, sys
out, digest, repo, lock_sha, log_sha, started, finished = sys.argv[1:8]
r = {"schema": "envlock.build-result/v1", "pushed": True,
     "image": {"repository": repo, "tag": "v1", "digest": digest, "reference": repo + "@" + digest},
     "builder": {"name": "buildah", "version": "1.28.2"}, "lock_sha256": lock_sha,
     "dockerfile_sha256": "6" * 64, "context_sha256": "5" * 64, "build_args": {},
     "source_date_epoch": 1700000000, "log": {"path": "build.log", "sha256": log_sha},
     "started_at": started, "finished_at": finished}
open(out, "w").write(json.dumps(r, sort_keys=True, indent=2) + "\n")
PY
}
run_cmd r "$ENVLOCK" provenance
check_eq "$r_rc" 2 "no build result: exit 2"
check_eq "$r_err" "envlock: error: build-result.json: no such build result; run \`envlock build\` first or pass --build-result FILE" \
  "no build result: the message"

write_result build-result.json "STEP 1/2 one" 2026-11-30T23:01:52Z 2026-11-30T23:02:11Z
run_cmd r "$ENVLOCK" provenance
check_eq "$r_rc" 0 "provenance: exit 0 ($r_err)"
check_eq "$(field provenance.json subject.0.digest.sha256)" "${DIGEST#sha256:}" \
  "provenance: subject digest == skopeo inspect"
check_eq "$(field provenance.json subject.0.name)" "$REG/ml/train" "provenance: subject name"
check_eq "$(python3 -c 'import json; d=json.load(open("provenance.json"))["predicate"]["buildDefinition"]
print([x for x in d["resolvedDependencies"] if x["name"] == "sources.megatron"][0]["digest"]["gitCommit"])')" \
  "$(git_commit_id megatron v2)" "provenance: the Megatron-LM commit"
check_not_contains "$(cat provenance.json)" "$WORK" "provenance: no absolute path"
cp provenance.json first.json
run_cmd r "$ENVLOCK" provenance
cmp -s first.json provenance.json && ok "provenance twice: identical bytes" || fail "twice" "bytes differ"
mkdir -p again
write_result again/build-result.json "STEP 1/2 two" 2026-12-01T08:00:00Z 2026-12-01T08:00:30Z
run_cmd r "$ENVLOCK" provenance --build-result again/build-result.json -o second.json
stable() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
del d["predicate"]["runDetails"]["metadata"], d["predicate"]["runDetails"]["byproducts"]
print(json.dumps(d, sort_keys=True, indent=2))' "$1"; }
check_ne "$(cat second.json)" "$(cat first.json)" "another build: volatile fields differ"
check_eq "$(stable second.json)" "$(stable first.json)" "another build: the stable part is identical"

# ---- keys: OpenSSL reads them and computes the same key id
run_cmd r "$ENVLOCK" keygen -o signing.key
check_eq "$r_rc" 0 "keygen: exit 0 ($r_err)"
check_eq "$(stat -c %a signing.key)" 600 "keygen: private key mode 0600"
KEYID=$(openssl pkey -pubin -in signing.key.pub -outform DER | sha256sum | cut -d' ' -f1)
check_contains "$r_out" "key id $KEYID" "keygen: key id == sha256 of the DER public key"
check_eq "$(openssl pkey -in signing.key -pubout)" "$(cat signing.key.pub)" "keygen: OpenSSL reads the pair"
run_cmd r "$ENVLOCK" keygen -o signing.key
check_eq "$r_rc:$r_err" "2:envlock: error: signing.key: already exists; pass --force to replace it" \
  "keygen again: refused"
# ---- keys stay out of git work trees unless ignored; the default is outside any project
mkdir -p tree/sub && git -C tree init -q
run_cmd r "$ENVLOCK" keygen -o tree/sub/key
check_eq "$r_rc:$r_err" "2:envlock: error: tree/sub/key: inside the git work tree $(pwd)/tree, where \`git add -A\` would commit the private key; write it outside (without -o: ~/.config/envlock/signing.key), list it in .gitignore, or pass --in-tree" \
  "keygen inside a git work tree: refused"
[ ! -e tree/sub/key ] && [ ! -e tree/sub/key.pub ] && ok "keygen inside a work tree: nothing written" ||
  fail "keygen inside a work tree: nothing written" "$(ls tree/sub)"
printf '*.key\n' >tree/.gitignore
run_cmd r "$ENVLOCK" keygen -o tree/sub/signing.key
check_eq "$r_rc" 0 "keygen of a file git ignores: written ($r_err)"
run_cmd r "$ENVLOCK" keygen -o tree/sub/key --in-tree
check_eq "$r_rc" 0 "keygen --in-tree: written ($r_err)"
run_cmd r env XDG_CONFIG_HOME="$WORK/cfg" "$ENVLOCK" keygen
check_eq "$r_rc" 0 "keygen without -o: exit 0 ($r_err)"
check_contains "$r_out" "wrote $WORK/cfg/envlock/signing.key (private, mode 0600)" "keygen without -o: the key goes to XDG_CONFIG_HOME"
check_eq "$(stat -c %a "$WORK/cfg/envlock")" 700 "keygen without -o: its folder is private"

"$ENVLOCK" keygen -o other.key >/dev/null
OTHER=$(openssl pkey -pubin -in other.key.pub -outform DER | sha256sum | cut -d' ' -f1)

# ---- sign and verify
run_cmd r "$ENVLOCK" provenance sign --key signing.key provenance.json -o provenance.dsse.json
check_eq "$r_rc" 0 "sign: exit 0 ($r_err)"
verify() { run_cmd r "$ENVLOCK" provenance verify "$@"; }
verify --pub signing.key.pub provenance.dsse.json --image-digest "$DIGEST"
check_eq "$r_rc" 0 "verify: exit 0 ($r_err)"
check_eq "$r_out" "provenance.dsse.json: verified: signed by key $KEYID (signing.key.pub); subject $DIGEST" \
  "verify: the message"

tamper() { # OUT PYTHON-EXPRESSION-ON-e
  python3 - provenance.dsse.json "$1" "$2" <<'PY'
import base64, json, sys
e = json.load(open(sys.argv[1]))
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(e, sort_keys=True, indent=2) + "\n")
PY
}
tamper payload.json 'p = bytearray(base64.b64decode(e["payload"])); p[40] ^= 1; e["payload"] = base64.b64encode(bytes(p)).decode()'
tamper sig.json 's = bytearray(base64.b64decode(e["signatures"][0]["sig"])); s[5] ^= 1; e["signatures"][0]["sig"] = base64.b64encode(bytes(s)).decode()'
SIGFAIL="the signature does not match the payload and its type under signing.key.pub"
verify --pub signing.key.pub payload.json
check_eq "$r_rc:$r_err" "1:envlock: error: payload.json: signature check failed: $SIGFAIL" "tampered payload: exit 1"
verify --pub signing.key.pub sig.json
check_eq "$r_rc:$r_err" "1:envlock: error: sig.json: signature check failed: $SIGFAIL" "tampered signature: exit 1"
verify --pub other.key.pub provenance.dsse.json
check_eq "$r_rc:$r_err" \
  "1:envlock: error: provenance.dsse.json: signed by key $KEYID, not by other.key.pub (key $OTHER)" \
  "wrong key: exit 1"
WRONG=sha256:$(printf '0%.0s' $(seq 64))
verify --pub signing.key.pub provenance.dsse.json --image-digest "$WRONG"
check_eq "$r_rc:$r_err" \
  "1:envlock: error: provenance.dsse.json: subject mismatch: no subject has digest $WRONG (subjects: $REG/ml/train $DIGEST)" \
  "wrong --image-digest: exit 1"
sed 's/^  "payloadType"/ "payloadType"/' provenance.dsse.json > space.json
verify --pub signing.key.pub space.json
check_eq "$r_rc:$r_err" \
  "1:envlock: error: space.json: not in the canonical form envlock writes (changed after signing?)" \
  "a changed space: exit 1"
finish
