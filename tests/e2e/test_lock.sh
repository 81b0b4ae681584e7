# envlock lock and lock --check against a real docker-registry on loopback, real git repositories
# (by path and by file:// URL) and Megatron-LM's uv.lock.
. "$REPO/tests/e2e/lib.sh"
need_tools git skopeo umoci docker-registry curl python3 sha256sum
FIXTURE=$REPO/tests/data/megatron-lm/core_v0.19.0
need_fixture "$FIXTURE/uv.lock"

# ---- a registry with one image, and a second image to move the tag to
reg_start_plain || skip "docker-registry did not start"
REG=$REG_PLAIN
umoci init --layout img >/dev/null
umoci new --image img:base >/dev/null
umoci config --image img:base --os linux --architecture amd64 --config.cmd /bin/sh >/dev/null
umoci config --image img:base --config.label moved=yes --tag moved >/dev/null
skopeo copy -q --dest-tls-verify=false oci:img:base "docker://$REG/nvidia/pytorch:26.06-py3"
DIGEST=$(skopeo inspect --tls-verify=false --format '{{.Digest}}' "docker://$REG/nvidia/pytorch:26.06-py3")
lock() { run_cmd r "$ENVLOCK" lock --insecure-registry "$REG" "$@"; }
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): d=d[int(k)] if isinstance(d,list) else d[k]
print(d)' "$@"; }

# ---- a project: envlock.yaml, the Megatron-LM uv.lock and pyproject.toml, a git repository
mkdir -p proj
git_make_repo proj/megatron
cp "$FIXTURE/uv.lock" "$FIXTURE/pyproject.toml" proj/
chmod u+w proj/uv.lock proj/pyproject.toml
write_manifest() { # DIR GIT REF CUDA [IMAGE]
  cat > "$1/envlock.yaml" <<YAML
envlock: 1
image: {name: ml/train, tag: v1, repository: $REG/ml/train}
base: {image: "${5:-$REG/nvidia/pytorch:26.06-py3}"}
sources:
  megatron: {git: "$2", ref: $3}
python:
  uv: {version: 0.7.2}
expect: {cuda: "$4"}
YAML
}
write_manifest proj megatron v2 13.3
cd proj

lock
check_eq "$r_rc" 0 "lock: exit 0 ($r_err)"
check_file envlock.lock.json "lock: envlock.lock.json written"
check_eq "$(field envlock.lock.json base_image.digest)" "$DIGEST" "lock: digest == skopeo inspect"
check_eq "$(field envlock.lock.json sources.megatron.commit)" "$(git_commit_id megatron v2)" \
  "lock: annotated tag by path -> its commit"
check_eq "$(field envlock.lock.json python.uv_lock.sha256)" "$(sha256sum uv.lock | cut -d' ' -f1)" \
  "lock: uv.lock sha256"
check_eq "$(python3 -c 'import json; print(len(json.load(open("envlock.lock.json"))["python"]["uv_lock"]["packages"]))')" \
  287 "lock: 287 packages"
check_contains "$r_out" "287 packages" "lock: summary names the packages"
check_contains "$r_out" "${DIGEST:0:19}" "lock: summary names the digest"
check_not_contains "$(cat envlock.lock.json)" "$WORK" "lock: no absolute path in the lock"

cp envlock.lock.json first.json
lock
check_eq "$r_rc" 0 "lock again: exit 0"
cmp -s first.json envlock.lock.json && ok "lock twice: identical bytes" || fail "lock twice" "bytes differ"
(cd .. && run_cmd r "$ENVLOCK" lock --insecure-registry "$REG" -f proj/envlock.yaml; exit "$r_rc")
check_eq "$?" 0 "lock -f from another folder: exit 0"
cmp -s first.json envlock.lock.json && ok "lock -f: identical bytes" || fail "lock -f" "bytes differ"

# ---- --check: no drift, then drift in uv.lock, then in the manifest
lock --check
check_eq "$r_rc" 0 "check: exit 0"
check_eq "$r_out" "envlock.lock.json matches envlock.yaml" "check: says it matches"
OLD_UV=$(sha256sum uv.lock | cut -d' ' -f1)
cp uv.lock uv.lock.orig
echo "# edited" >> uv.lock
NEW_UV=$(sha256sum uv.lock | cut -d' ' -f1)
lock --check
check_eq "$r_rc" 1 "check uv.lock edited: exit 1"
check_eq "$(echo "$r_out" | grep '^drift')" "drift: python.uv_lock.sha256: lock has $OLD_UV, uv.lock is now $NEW_UV" \
  "check uv.lock edited: the drift line"
cp uv.lock.orig uv.lock
OLD_M=$(sha256sum envlock.yaml | cut -d' ' -f1)
write_manifest . megatron v2 13.4
NEW_M=$(sha256sum envlock.yaml | cut -d' ' -f1)
lock --check
check_eq "$r_rc" 1 "check expect edited: exit 1"
check_eq "$(echo "$r_out" | grep '^drift')" "drift: expect.cuda: lock has \"13.3\", manifest has \"13.4\"
drift: manifest.sha256: lock has $OLD_M, envlock.yaml is now $NEW_M" "check expect edited: the drift lines"
check_contains "$r_out" "envlock.lock.json is out of date (2 drifts); run 'envlock lock'" "check: summary line"
write_manifest . megatron v2 13.3

# ---- uv.lock changed: --check names the packages that moved, in text and in JSON
sed -i '/^name = "tensorstore"$/{n;s/^version = ".*"$/version = "0.1.99"/}' uv.lock
OLD_TS=$(python3 -c 'import json; print([p["version"] for p in json.load(open("envlock.lock.json"))["python"]["uv_lock"]["packages"] if p["name"]=="tensorstore"][0])')
lock --check
check_eq "$r_rc" 1 "check, a package's version edited in uv.lock: exit 1"
check_eq "$(echo "$r_out" | grep '^drift: python.uv_lock.packages')" \
  "drift: python.uv_lock.packages.tensorstore: upgraded: lock has \"$OLD_TS\" (registry https://python-index.invalid/simple), uv.lock has \"0.1.99\" (registry https://python-index.invalid/simple)" \
  "check, a package's version edited: the package named"
lock --check --format json
check_eq "$r_rc" 1 "check --format json: exit 1"
check_eq "$(echo "$r_out" | python3 -c 'import json,sys; d=json.load(sys.stdin)
print(d["matches"], [x["field"] for x in d["drifts"]], d["packages"])')" \
  "False ['python.uv_lock.sha256', 'python.uv_lock.packages.tensorstore'] [{'kind': 'upgraded', 'lock': [{'source': 'registry https://python-index.invalid/simple', 'version': '$OLD_TS'}], 'name': 'tensorstore', 'uv_lock': [{'source': 'registry https://python-index.invalid/simple', 'version': '0.1.99'}]}]" \
  "check --format json: the drifts and the package that moved"
cp uv.lock.orig uv.lock
lock --check --format json
check_eq "$r_rc:$(echo "$r_out" | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), separators=(",", ":")))')" \
  '0:{"drifts":[],"lock":"envlock.lock.json","manifest":"envlock.yaml","matches":true,"packages":[],"schema":"envlock.lock-check/v1"}' \
  "check --format json, nothing drifted"
lock --format json
check_eq "$r_rc:$r_err" "2:envlock: error: --format needs --check (envlock lock writes only the lock)" \
  "--format without --check: refused"

# ---- pyproject.toml that uv.lock no longer satisfies: lock and --check refuse, naming it
cp pyproject.toml pyproject.toml.orig
sed -i 's/"torch>=2.6.0"/"torch>=2.7.0"/; s/"numpy", /"numpy", "safetensors", /' pyproject.toml
MOVED_ERR="envlock: error: python.project: uv.lock no longer matches pyproject.toml (uv lock --check and uv sync --locked refuse it); run 'uv lock' and lock again:
  pyproject.toml:28:42: [project.dependencies] requires 'safetensors', which uv.lock did not record
  pyproject.toml:28:17: [project.dependencies] requires 'torch>=2.7.0', uv.lock recorded 'torch>=2.6.0'"
lock
check_eq "$r_rc:$r_err" "2:$MOVED_ERR" "lock, pyproject.toml edited: refused, naming the requirements"
cmp -s first.json envlock.lock.json && ok "lock refused: the lock is untouched" || fail "lock refused" "the lock changed"
lock --check
check_eq "$r_rc:$r_err" "2:$MOVED_ERR" "check, pyproject.toml edited: refused as lock refuses"
cp pyproject.toml.orig pyproject.toml

# ---- expect against uv.lock's packages: Megatron-LM keeps torch out (override, marker never)
sed -i 's/^expect: {cuda: "13.3"}$/expect: {cuda: "13.3", pytorch: "2.12.0a0+nv", python: "3.12"}/' envlock.yaml
lock -o expect.lock.json
check_eq "$r_rc" 0 "lock, expect.pytorch of the base image, torch overridden away: exit 0 ($r_err)"
sed -i "s/{ name = \"torch\", marker = \"sys_platform == 'never'\" }/{ name = \"torch\" }/" uv.lock
sed -i "s/\"torch; sys_platform == 'never'\",/\"torch\",/" pyproject.toml # the override, as uv.lock now records it
sed -i 's/python: "3.12"}$/python: "3.11"}/' envlock.yaml
lock -o expect.lock.json
check_eq "$r_rc:$r_err" "2:envlock: error: expect: uv.lock contradicts the manifest:
  expect.pytorch is '2.12.0a0+nv'; uv.lock locks torch 2.13.0
  expect.python is '3.11'; uv.lock has requires-python '>=3.12', which no Python 3.11 satisfies" \
  "lock, torch installed against expect.pytorch, python against requires-python: refused"
cp uv.lock.orig uv.lock
cp pyproject.toml.orig pyproject.toml
write_manifest . megatron v2 13.3

# ---- --check --refresh: a moved tag
skopeo copy -q --dest-tls-verify=false oci:../img:moved "docker://$REG/nvidia/pytorch:26.06-py3"
MOVED=$(skopeo inspect --tls-verify=false --format '{{.Digest}}' "docker://$REG/nvidia/pytorch:26.06-py3")
check_ne "$MOVED" "$DIGEST" "retag: the tag now points elsewhere"
lock --check
check_eq "$r_rc" 0 "check without refresh: no network, exit 0"
lock --check --refresh
check_eq "$r_rc" 1 "check --refresh: exit 1"
check_eq "$(echo "$r_out" | grep '^drift')" \
  "drift: base_image.digest: $REG/nvidia/pytorch:26.06-py3 moved from $DIGEST to $MOVED" \
  "check --refresh: the moved tag"
lock
check_eq "$(field envlock.lock.json base_image.digest)" "$MOVED" "relock: the new digest"

# ---- a local repository's tag moved: drift for --check alone, offline
OLD_T=$(git_commit_id megatron v2)
git_env git -C megatron tag -f -a v2 -m "version 2, moved" main >/dev/null
lock --check
check_eq "$r_rc" 1 "check, a local tag moved: exit 1 without --refresh"
check_eq "$(echo "$r_out" | grep '^drift')" \
  "drift: sources.megatron.commit: v2 moved from $OLD_T to $(git_commit_id megatron main)" \
  "check, a local tag moved: the drift line"
lock
check_eq "$(field envlock.lock.json sources.megatron.commit)" "$(git_commit_id megatron main)" \
  "relock: the local tag's new commit"

# ---- a hand-edited lock: --check refuses what `render` would refuse, never "matches"
cp envlock.lock.json good.lock.json
edit_lock() { python3 - "$1" "$2" <<'PY'
import json, sys
lock = json.load(open("good.lock.json"))
exec(sys.argv[2])
json.dump(lock, open(sys.argv[1], "w"), indent=2, sort_keys=True)
PY
}
edit_lock latest.lock.json 'lock["base_image"]["digest"] = "sha256:latest"'
lock --check -o latest.lock.json
check_eq "$r_rc:$r_err" "2:envlock: error: latest.lock.json: base_image.digest: 'sha256:latest' is not a sha256 digest (sha256: and 64 hex digits)" \
  "check, a digest edited to sha256:latest: refused"
edit_lock short.lock.json 'lock["sources"]["megatron"]["commit"] = lock["sources"]["megatron"]["commit"][:12]'
SHORT=$(field short.lock.json sources.megatron.commit)
lock --check -o short.lock.json
check_eq "$r_rc:$r_err" "2:envlock: error: short.lock.json: sources.megatron.commit: '$SHORT' is not a full commit (40 hex digits)" \
  "check, a commit cut to 12 hex digits: refused"
edit_lock typo.lock.json 'lock["base_image"]["digets"] = lock["base_image"].pop("digest")'
lock --check -o typo.lock.json
check_eq "$r_rc:$r_err" "2:envlock: error: typo.lock.json: base_image.digest: missing" \
  "check, the digest's key misspelt: the digest is missing"
edit_lock extra.lock.json 'lock["base_image"]["digets"] = lock["base_image"]["digest"]'
lock --check -o extra.lock.json
check_eq "$r_rc" 2 "check, an unknown key beside the right one: exit 2"
check_contains "$r_err" "'digets'; did you mean 'digest'?" "check, an unknown key: did you mean"

# ---- a branch by file:// URL, then moved
write_manifest . "file://$WORK/proj/megatron" release 13.3
lock
check_eq "$r_rc" 0 "lock file:// URL: exit 0 ($r_err)"
check_eq "$(field envlock.lock.json sources.megatron.commit)" "$(git_commit_id megatron release)" \
  "lock file:// URL: branch -> its commit"
OLD_C=$(git_commit_id megatron release)
git_advance megatron release
lock --check
check_eq "$(echo "$r_out" | grep '^drift')" \
  "drift: sources.megatron.commit: release moved from $OLD_C to $(git_commit_id megatron release)" \
  "check: a file:// repository is local, so the moved branch is found without --refresh"
lock --check --refresh
check_eq "$(echo "$r_out" | grep '^drift')" \
  "drift: sources.megatron.commit: release moved from $OLD_C to $(git_commit_id megatron release)" \
  "check --refresh: the moved branch"

# ---- training: and launch: each file hashed into the lock; --check names a changed or lost file
write_manifest . megatron v2 13.3
mkdir -p conf tok data
printf 'layers: 24\n' >conf/train.yaml
printf '{"a": 1}' >tok/vocab.json
python3 -c 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 12000)' >data/sample.bin
printf 'MMIDIDX\0\0' >data/sample.idx
cat >>envlock.yaml <<'YAML'
training:
  config: ./conf/train.yaml
  tokenizer: [tok/vocab.json]
  data: data/sample
  checkpoint_dir: /lustre/ckpt/gpt
launch:
  command: sbatch --nodes 1 train.sbatch
  directories: {checkpoints: /lustre/ckpt/gpt, data: /lustre/data}
YAML
lock
check_eq "$r_rc" 0 "lock with training: exit 0 ($r_err)"
check_eq "$(field envlock.lock.json training.data.bin.sha256) $(field envlock.lock.json training.data.bin.size)" \
  "$(sha256sum data/sample.bin | cut -d' ' -f1) 3072000" "lock: the data .bin's sha256 and size"
check_eq "$(field envlock.lock.json training.data.idx.sha256)" "$(sha256sum data/sample.idx | cut -d' ' -f1)" "lock: the data .idx's sha256"
check_eq "$(field envlock.lock.json training.config.path) $(field envlock.lock.json training.tokenizer.0.path)" \
  "conf/train.yaml tok/vocab.json" "lock: paths normalised, relative to the manifest's folder"
check_eq "$(field envlock.lock.json launch.directories.data) | $(field envlock.lock.json launch.command)" \
  "/lustre/data | sbatch --nodes 1 train.sbatch" "lock: launch as written"
check_contains "$r_out" "  training: 4 files, 3072028 bytes hashed" "lock: the summary says how much was hashed"
check_not_contains "$r_err" "hashing" "lock: no progress line when standard error is not a terminal"
if command -v script >/dev/null; then
  tty_err=$(script -qec "$ENVLOCK lock --insecure-registry $REG -o tty.lock.json" /dev/null)
  check_contains "$tty_err" "hashing data/sample.bin: 2.9 of 2.9 MiB" "lock: the progress line on a terminal, in the unit of the file's size"
  check_contains "$tty_err" "hashing conf/train.yaml: 11 of 11 bytes" "lock: a small file's progress in bytes"
  check_not_contains "$tty_err" "0.0 of 0.0" "lock: no '0.0 of 0.0' for a small file"
  cmp -s tty.lock.json envlock.lock.json && ok "lock on a terminal: the same bytes" || fail "lock on a terminal" "bytes differ"
fi
lock --check
check_eq "$r_rc:$r_out" "0:envlock.lock.json matches envlock.yaml" "check with training: no drift"
OLD_BIN=$(sha256sum data/sample.bin | cut -d' ' -f1)
printf 'x' >>data/sample.bin
rm conf/train.yaml
lock --check
check_eq "$r_rc" 1 "check with a changed data file: exit 1"
check_eq "$(echo "$r_out" | grep '^drift')" "drift: training.config conf/train.yaml: cannot read (No such file or directory), the lock has $(printf 'layers: 24\n' | sha256sum | cut -d' ' -f1) (11 bytes)
drift: training.data data/sample.bin: sha256 $(sha256sum data/sample.bin | cut -d' ' -f1) (3072001 bytes), the lock has $OLD_BIN (3072000 bytes)" \
  "check: the changed and the lost file named"
lock
check_eq "$r_rc:$r_err" "2:envlock: error: training.config: cannot read conf/train.yaml: No such file or directory" "lock: a training file that is not there"
printf 'layers: 24\n' >conf/train.yaml
sed -i 's#data: data/sample$#data: data/sample.bin#' envlock.yaml
lock
check_eq "$r_rc" 2 "a data path with .bin: exit 2"
check_eq "$(echo "$r_err" | head -1)" "envlock: error: envlock.yaml:12:9: 'training.data' must be a Megatron data prefix without .bin or .idx (PREFIX.bin and PREFIX.idx are read), got 'data/sample.bin'" \
  "a data path with .bin: FILE:LINE:COL"

# ---- errors
write_manifest . megatron no-such-tag 13.3
lock
check_eq "$r_rc" 2 "unknown ref: exit 2"
check_eq "$r_err" "envlock: error: sources.megatron: ref 'no-such-tag' not found in megatron; tags of megatron: v1, v2" \
  "unknown ref: message"
write_manifest . megatron v2 13.3 "$REG/nvidia/pytorch:26.06-py3@$DIGEST"
lock
check_eq "$r_rc" 1 "tag@digest the registry disagrees with: exit 1"
check_eq "$r_err" "envlock: error: base.image: the registry says $REG/nvidia/pytorch:26.06-py3 is $MOVED, the manifest pins $DIGEST" \
  "tag@digest: message"
write_manifest . megatron v2 13.3
echo "imgae: x" >> envlock.yaml
lock
check_eq "$r_rc" 2 "bad manifest: exit 2"
check_contains "$r_err" "envlock.yaml:" "bad manifest: names the file"
write_manifest . megatron v2 13.3
lock --check -o nowhere.json
check_eq "$r_rc" 2 "check without a lock: exit 2"
check_eq "$r_err" "envlock: error: nowhere.json: no such lock; run 'envlock lock' to create it" \
  "check without a lock: message"
lock --refresh
check_eq "$r_rc" 2 "--refresh without --check: exit 2"
# ---- a committed envlock.lock.json that is a link: never written through
write_manifest . megatron v2 13.3
cp envlock.lock.json ../kept.lock.json 2>/dev/null || true
printf 'victim\n' >../victim
rm -f envlock.lock.json && ln -s ../victim envlock.lock.json
lock
check_eq "$r_rc:$r_err" "2:envlock: error: envlock.lock.json: is a symbolic link (to ../victim); a default output is written only as a regular file: remove it, or name the file with -o" \
  "a lock path that is a link: refused"
check_eq "$(cat ../victim)" "victim" "a lock path that is a link: the file it points to is untouched"
lock -o envlock.lock.json
check_eq "$r_rc" 0 "-o through the link: written, as the user asked ($r_err)"
check_contains "$(cat ../victim)" '"schema"' "-o through the link: the link's file holds the lock"
rm -f envlock.lock.json
DOWN=$(free_port)
write_manifest . megatron v2 13.3 "127.0.0.1:$DOWN/nvidia/pytorch:26.06-py3"
run_cmd r "$ENVLOCK" lock --insecure-registry "127.0.0.1:$DOWN"
check_eq "$r_rc" 3 "registry down: exit 3"
finish
