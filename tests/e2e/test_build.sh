# envlock context and envlock build: a real lock (docker-registry on loopback, a git repository),
# the context tar checked against `git archive` and for reproducibility, then two buildah builds
# from the same lock, pushed to the registry: the digest in build-result.json must equal skopeo's,
# and both builds must give the same image digest and context sha256. Also the errors, word for
# word, and `envlock lint` on an upstream-style recipe with planted problems.
. "$REPO/tests/e2e/lib.sh"
reg_need
need_tools git tar sha256sum cmp

TEMPLATE=$REPO/tests/data/build/tiny.mustache
json() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval("d"+sys.argv[2]))' "$@"; }

reg_start_plain || skip "docker-registry did not start"
reg_make_image base amd64 >/dev/null && reg_push base "$REG_PLAIN/demo/base:v1" ||
  skip "could not build and push the base image with umoci and skopeo"
mkdir -p proj
cp "$REPO"/examples/demo/{envlock.yaml,pyproject.toml,uv.lock} proj/
sed -i "s/127\.0\.0\.1:5000/$REG_PLAIN/g; s/ref: core_v0.0.1/ref: v2/" proj/envlock.yaml
printf 'enroot:\n  source_date_epoch: 1700000000\n' >> proj/envlock.yaml
git_make_repo proj/megatron-lm
mkdir -p proj/megatron-lm/tools
printf '#!/bin/sh\necho hi\n' > proj/megatron-lm/tools/run.sh && chmod 0755 proj/megatron-lm/tools/run.sh
ln -s ../README.md proj/megatron-lm/tools/readme
git_env git -C proj/megatron-lm add -A && git_env git -C proj/megatron-lm commit -q -m tools &&
  git_env git -C proj/megatron-lm tag -f v2 >/dev/null
COMMIT=$(git_commit_id proj/megatron-lm v2)
cd proj
run_cmd l "$ENVLOCK" lock --insecure-registry "$REG_PLAIN"
check_eq "$l_rc" 0 "lock: exit 0 ($l_err)"

# ---- a lock stale against its manifest (an older Megatron-LM ref): nothing is built or pushed
cp envlock.yaml envlock.yaml.locked
sed -i 's/ref: v2/ref: v1/' envlock.yaml
run_cmd st "$ENVLOCK" build --template "$TEMPLATE" --push --insecure-registry "$REG_PLAIN" \
  --result stale/build-result.json
check_eq "$st_rc" 1 "build from a stale lock: exit 1"
check_eq "$st_err" "envlock: error: envlock.lock.json is out of date against envlock.yaml; run 'envlock lock' and build again (nothing was built):
  drift: manifest.sha256: lock has $(sha256sum envlock.yaml.locked | cut -d' ' -f1), envlock.yaml is now $(sha256sum envlock.yaml | cut -d' ' -f1)
  drift: sources.megatron.ref: lock has \"v2\", manifest has \"v1\"" \
  "build from a stale lock: the drift, as lock --check names it"
[ ! -e stale ] && ok "build from a stale lock: no log, no result" || fail "stale lock" "stale/ written"
mv envlock.yaml.locked envlock.yaml

# ---- envlock context: deterministic, sorted, owned by 0:0, the lock's mtime, git's tree
run_cmd c1 "$ENVLOCK" context --template "$TEMPLATE" -o ctx1.tar
check_eq "$c1_rc" 0 "context: exit 0 ($c1_err)"
"$ENVLOCK" context --template "$TEMPLATE" -o ctx2.tar >/dev/null
cmp -s ctx1.tar ctx2.tar && ok "context: twice, identical bytes" || fail "context: twice, identical bytes" "differ"
CTX_SHA=$(sha256sum ctx1.tar | cut -d' ' -f1)
check_eq "${c1_out%%  *}" "$CTX_SHA" "context: prints the tar's sha256"
run_cmd cs bash -c '"$ENVLOCK" context --template "$1" -o - | sha256sum' _ "$TEMPLATE"
check_eq "${cs_out%%  *}" "$CTX_SHA" "context -o -: the same tar on standard output"
check_eq "$(head -1 <<<"$cs_err")" "$CTX_SHA  -" "context -o -: its sha256 on standard error"
[ ! -e ./- ] && ok "context -o -: no file named '-'" || fail "context -o -: no file named '-'" "found ./-"
listing=$(tar -tvf ctx1.tar --numeric-owner)
check_eq "$(tar -tf ctx1.tar | head -3 | tr '\n' ' ')" "Dockerfile megatron-lm/ megatron-lm/README.md " \
  "context: entries sorted, Dockerfile first"
check_eq "$(tar -tf ctx1.tar | LC_ALL=C sort -c && echo sorted)" "sorted" "context: entries in byte order"
check_eq "$(awk '{print $2}' <<<"$listing" | sort -u)" "0/0" "context: every entry owned by 0/0"
check_eq "$(TZ=UTC awk '{print $4" "$5}' <<<"$listing" | sort -u)" "2023-11-14 22:13" \
  "context: every mtime is source_date_epoch"
check_contains "$listing" "-rwxr-xr-x 0/0              18 2023-11-14 22:13 megatron-lm/tools/run.sh" \
  "context: executable keeps 0755"
check_contains "$listing" "lrwxrwxrwx 0/0               0 2023-11-14 22:13 megatron-lm/tools/readme -> ../README.md" \
  "context: symlink"
mkdir -p x/ctx x/git
tar -xf ctx1.tar -C x/ctx && git -C megatron-lm archive "$COMMIT" | tar -x -C x/git
diff -r x/ctx/megatron-lm x/git >/dev/null && ok "context: megatron-lm/ equals git archive of the commit" ||
  fail "context: megatron-lm/ equals git archive of the commit" "$(diff -r x/ctx/megatron-lm x/git | head -5)"
cmp -s x/ctx/python/uv.lock uv.lock && ok "context: python/uv.lock" || fail "context: python/uv.lock" "differs"
"$ENVLOCK" render --template "$TEMPLATE" -o rendered.Dockerfile
cmp -s x/ctx/Dockerfile rendered.Dockerfile && ok "context: Dockerfile is what render writes" ||
  fail "context: Dockerfile is what render writes" "differs"
echo "changed" >> uv.lock
run_cmd e "$ENVLOCK" context --template "$TEMPLATE" -o ctx3.tar
check_eq "$e_rc" 1 "context: changed uv.lock: exit 1"
check_contains "$e_err" "envlock: error: uv.lock has changed since it was locked (sha256 " \
  "context: changed uv.lock: message"
[ ! -e ctx3.tar ] && ok "context: nothing written on error" || fail "context: nothing written on error" "ctx3.tar exists"
cp x/ctx/python/uv.lock uv.lock

# ---- SOURCE_DATE_EPOCH from the environment: honoured without --source-date-epoch; the flag wins
run_cmd se env SOURCE_DATE_EPOCH=1600000000 "$ENVLOCK" context --template "$TEMPLATE" -o ctx-env.tar
check_eq "$se_rc" 0 "context, SOURCE_DATE_EPOCH: exit 0 ($se_err)"
check_eq "$se_err" "envlock: SOURCE_DATE_EPOCH=1600000000 from the environment (the lock has 1700000000)" \
  "context, SOURCE_DATE_EPOCH: says where the epoch comes from"
check_contains "$se_out" ", mtime 1600000000" "context, SOURCE_DATE_EPOCH: prints the mtime used"
check_eq "$(tar -tvf ctx-env.tar --numeric-owner | TZ=UTC awk '{print $4" "$5}' | sort -u)" "2020-09-13 12:26" \
  "context, SOURCE_DATE_EPOCH: every mtime is the variable's"
run_cmd sf env SOURCE_DATE_EPOCH=1600000000 "$ENVLOCK" context --template "$TEMPLATE" \
  --source-date-epoch 1700000000 -o ctx-flag.tar
check_eq "$sf_rc:$sf_err" "0:" "context, flag and variable: exit 0, no note"
cmp -s ctx-flag.tar ctx1.tar && ok "context: --source-date-epoch wins over SOURCE_DATE_EPOCH" ||
  fail "context: --source-date-epoch wins over SOURCE_DATE_EPOCH" "the tars differ"
run_cmd sb env SOURCE_DATE_EPOCH=yesterday "$ENVLOCK" context --template "$TEMPLATE" -o ctx-bad.tar
check_eq "$sb_rc" 2 "context, malformed SOURCE_DATE_EPOCH: exit 2"
check_eq "$sb_err" "envlock: error: SOURCE_DATE_EPOCH='yesterday' in the environment: not a number of seconds from 0 to 4294967295" \
  "context, malformed SOURCE_DATE_EPOCH: message"
run_cmd sn "$ENVLOCK" context --template "$TEMPLATE" --source-date-epoch -1 -o ctx-bad.tar
check_eq "$sn_rc:$sn_err" "2:envlock: error: --source-date-epoch -1: not a number of seconds from 0 to 4294967295" \
  "context, negative --source-date-epoch"

# ---- envlock build: buildah, pushed; twice from the same lock
IMAGE=$REG_PLAIN/demo/envlock-demo
run_cmd b1 "$ENVLOCK" build --template "$TEMPLATE" --push --insecure-registry "$REG_PLAIN" --result r1/build-result.json
check_eq "$b1_rc" 0 "build: exit 0 ($(tail -5 <<<"$b1_err"))"
check_contains "$b1_err" "STEP" "build: the log is streamed to the terminal"
check_file r1/build-result.json "build: build-result.json written"
check_file r1/build-result.log "build: build-result.log beside it"
SKOPEO=$(reg_digest "$IMAGE:v1")
check_eq "$(json r1/build-result.json '["image"]["digest"]')" "$SKOPEO" "build: digest == skopeo inspect"
check_eq "$(json r1/build-result.json '["image"]["reference"]')" "$IMAGE@$SKOPEO" "build: reference"
check_eq "$(json r1/build-result.json '["context_sha256"]')" "$CTX_SHA" "build: context_sha256 == envlock context"
check_eq "$(json r1/build-result.json '["log"]["sha256"]')" "$(sha256sum r1/build-result.log | cut -d' ' -f1)" "build: log sha256"
check_eq "$(json r1/build-result.json '["lock_sha256"]')" "$(sha256sum envlock.lock.json | cut -d' ' -f1)" "build: lock sha256"
check_eq "$(json r1/build-result.json '["dockerfile_sha256"]')" "$(sha256sum rendered.Dockerfile | cut -d' ' -f1)" "build: dockerfile sha256"
check_eq "$(json r1/build-result.json '["builder"]["version"]')" "$(buildah --version | awk '{print $3}')" "build: builder version"
check_eq "$(json r1/build-result.json '["schema"]') $(json r1/build-result.json '["pushed"]') $(json r1/build-result.json '["source_date_epoch"]')" \
  "envlock.build-result/v1 True 1700000000" "build: schema, pushed, source_date_epoch"
check_eq "$(json r1/build-result.json '["build_args"]')" "{'UV_PROJECT_ENVIRONMENT': '/opt/venv'}" "build: build_args"
check_contains "$(json r1/build-result.json '["started_at"]')" "T" "build: started_at"
check_eq "$(skopeo inspect --tls-verify=false --format '{{index .Labels "org.opencontainers.image.revision"}}' "docker://$IMAGE@$SKOPEO")" \
  "$COMMIT" "build: the image carries the commit label"
run_cmd b2 "$ENVLOCK" build -q --template "$TEMPLATE" --push --insecure-registry "$REG_PLAIN" --result r2/build-result.json
check_eq "$b2_rc" 0 "second build: exit 0 ($b2_err)"
check_eq "$(json r2/build-result.json '["image"]["digest"]')" "$SKOPEO" "second build: same image digest"
check_eq "$(json r2/build-result.json '["context_sha256"]')" "$CTX_SHA" "second build: same context sha256"
check_eq "$b2_err" "" "-q: no log on the terminal"

# ---- --attest: the build's signed provenance and the image's SBOM attached to the pushed image
mkdir -p keys && "$ENVLOCK" keygen -o keys/ci >/dev/null
run_cmd at "$ENVLOCK" build -q --template "$TEMPLATE" --insecure-registry "$REG_PLAIN" --attest provenance --key keys/ci
check_eq "$at_rc:$at_err" "2:envlock: error: --attest needs --push: attestations are attached to the image in its registry" \
  "--attest without --push: refused before building"
run_cmd at "$ENVLOCK" build -q --template "$TEMPLATE" --push --insecure-registry "$REG_PLAIN" --attest sbom,slsa
check_eq "$at_rc:$at_err" "2:envlock: error: --attest 'slsa': not one of provenance, sbom" "--attest: an unknown kind"
run_cmd b4 "$ENVLOCK" build -q --template "$TEMPLATE" --push --insecure-registry "$REG_PLAIN" \
  --result r4/build-result.json --attest provenance,sbom --key keys/ci
check_eq "$b4_rc" 0 "build --push --attest provenance,sbom: exit 0 ($b4_err)"
check_contains "$b4_out" "pushed provenance.dsse.json (provenance) as $IMAGE@sha256:" "the provenance is attached"
check_contains "$b4_out" "pushed sbom.cdx.json (sbom) as $IMAGE@sha256:" "the SBOM is attached"
check_contains "$b4_out" "listed in tag sha256-${SKOPEO#sha256:} (the registry has no referrers API)" "... in the referrers tag of the built image"
run_cmd al "$ENVLOCK" attest list "$IMAGE@$SKOPEO"
check_contains "$al_out" "$IMAGE@$SKOPEO: 2 attestations (from tag sha256-${SKOPEO#sha256:})" "attest list: both, by the image's digest"
"$ENVLOCK" attest fetch "$IMAGE@$SKOPEO" --type provenance -o built.dsse.json 2>/dev/null
run_cmd pv "$ENVLOCK" provenance verify --pub keys/ci.pub --image-digest "$SKOPEO" built.dsse.json
check_eq "$pv_rc" 0 "the attached provenance verifies with the key, its subject the image ($pv_out $pv_err)"
"$ENVLOCK" attest fetch "$IMAGE@$SKOPEO" --type sbom -o built.cdx.json 2>/dev/null
check_eq "$(python3 -c 'import json; d=json.load(open("built.cdx.json")); c=d["metadata"]["component"]; print(c["name"], c["version"], d["metadata"]["timestamp"])')" \
  "$IMAGE $SKOPEO 2023-11-14T22:13:20Z" "the attached SBOM is of the pushed image, stamped with the build's SOURCE_DATE_EPOCH"
"$ENVLOCK" sbom --image "$IMAGE@$SKOPEO" --insecure-registry "$REG_PLAIN" -o again.cdx.json 2>/dev/null
cmp -s built.cdx.json again.cdx.json && ok "the attached SBOM is what envlock sbom --image writes" ||
  fail "attached SBOM" "differs from envlock sbom --image"

# ---- two results in one folder keep their own logs; SOURCE_DATE_EPOCH and --source-date-epoch
run_cmd ba env SOURCE_DATE_EPOCH=1600000000 "$ENVLOCK" build -q --template "$TEMPLATE" \
  --source-date-epoch 1700000000 --result same/a.json
check_eq "$ba_rc:$ba_err" "0:" "result a (not pushed; flag and variable): exit 0, no note"
run_cmd bb env SOURCE_DATE_EPOCH=1600000000 "$ENVLOCK" build -q --template "$TEMPLATE" --push \
  --insecure-registry "$REG_PLAIN" --result same/b.json
check_eq "$bb_rc" 0 "result b (pushed; variable): exit 0 ($bb_err)"
check_eq "$bb_err" "envlock: SOURCE_DATE_EPOCH=1600000000 from the environment" "result b: the note"
check_contains "$bb_out" "SOURCE_DATE_EPOCH 1600000000" "result b: prints the epoch used"
check_eq "$(json same/a.json '["source_date_epoch"]') $(json same/b.json '["source_date_epoch"]')" \
  "1700000000 1600000000" "the flag wins; the variable is honoured; each recorded"
check_eq "$(json same/a.json '["log"]["path"]') $(json same/b.json '["log"]["path"]')" "a.log b.log" \
  "each result names its own log"
check_eq "$(json same/a.json '["log"]["sha256"]')" "$(sha256sum same/a.log | cut -d' ' -f1)" "a.log kept its bytes"
check_eq "$(json same/b.json '["log"]["sha256"]')" "$(sha256sum same/b.log | cut -d' ' -f1)" "b.log kept its bytes"
B_DIGEST=$(json same/b.json '["image"]["digest"]')
check_ne "$B_DIGEST" "$SKOPEO" "another SOURCE_DATE_EPOCH, another image"
run_cmd pa "$ENVLOCK" provenance --build-result same/a.json -o -
check_eq "$pa_rc" 0 "provenance of result a: exit 0 ($pa_err)"
run_cmd pb "$ENVLOCK" provenance --build-result same/b.json -o -
check_eq "$pb_rc" 0 "provenance of result b, built after a into the same folder: exit 0 ($pb_err)"
A_LOG_SHA=$(sha256sum same/a.log | cut -d' ' -f1)
echo "edited" >> same/a.log
run_cmd pc "$ENVLOCK" provenance --build-result same/a.json -o -
check_eq "$pc_rc" 2 "a log changed after the build: exit 2"
check_eq "$pc_err" "envlock: error: same/a.log: changed after the build that wrote same/a.json (sha256 $(sha256sum same/a.log | cut -d' ' -f1), the result records $A_LOG_SHA); restore that build's log, or run \`envlock build\` again for a new result and log" \
  "a log changed after the build: the file, that it changed, what to do"

# ---- squashfs --build-result: the image the build pushed, by its recorded reference and digest
run_cmd sq "$ENVLOCK" squashfs --build-result same/b.json --lock envlock.lock.json \
  --insecure-registry "$REG_PLAIN" -o sq/img.sqsh
check_eq "$sq_rc" 0 "squashfs --build-result: exit 0 ($sq_err)"
check_eq "$(json sq/img.squashfs-result.json '["image"]["reference"]')" "$IMAGE@$B_DIGEST" \
  "squashfs --build-result: the recorded reference and digest"
check_eq "$(json sq/img.squashfs-result.json '["enroot"]["source_date_epoch"]')" 1700000000 \
  "squashfs --build-result: the lock's SOURCE_DATE_EPOCH"
run_cmd pq "$ENVLOCK" provenance --build-result same/b.json --squashfs-result sq/img.squashfs-result.json -o -
check_eq "$pq_rc" 0 "provenance of the build and its .sqsh: exit 0 ($pq_err)"
check_contains "$pq_out" "\"name\": \"img.sqsh\"" "provenance names the .sqsh"
run_cmd sa "$ENVLOCK" squashfs --build-result same/a.json -o sq/a.sqsh --source-date-epoch 0
check_eq "$sa_rc" 2 "squashfs of an unpushed build result: exit 2"
check_eq "$sa_err" "envlock: error: same/a.json: the image was not pushed, so $(json same/a.json '["image"]["digest"]') is a local image id, not a registry digest; run \`envlock build --push\`, or give --image REF@DIGEST" \
  "squashfs of an unpushed build result: message"
run_cmd sx "$ENVLOCK" squashfs --build-result same/b.json --image "$IMAGE@$B_DIGEST" -o sq/x.sqsh --source-date-epoch 0
check_eq "$sx_rc:$sx_err" "2:envlock: error: --build-result names the image; leave out --image and --oci-layout" \
  "squashfs: --build-result and --image together"

# ---- squashfs in a folder with the lock and the build's result: the built image, said so
mkdir -p tour && cp envlock.lock.json tour/ && cp same/b.json tour/build-result.json
cd tour
run_cmd tq "$ENVLOCK" squashfs --insecure-registry "$REG_PLAIN" -o image.sqsh
check_eq "$tq_rc" 0 "squashfs with no image named, beside a build result: exit 0 ($tq_err)"
check_contains "$tq_err" "envlock: squashing the image built from envlock.lock.json, $IMAGE@$B_DIGEST (build-result.json)" \
  "squashfs with no image named: the built image, and where it was found"
check_eq "$(json image.squashfs-result.json '["image"]["reference"]')" "$IMAGE@$B_DIGEST" \
  "squashfs with no image named: the result is named after the .sqsh and records the built image"
run_cmd tv "$ENVLOCK" squashfs verify image.sqsh
check_eq "$tv_rc:$tv_err" "0:envlock: comparing with image.squashfs-result.json" \
  "squashfs verify X.sqsh finds X.squashfs-result.json beside it"
cp ../same/a.json build-result.json
run_cmd tu "$ENVLOCK" squashfs --insecure-registry "$REG_PLAIN" -o other.sqsh
check_eq "$tu_rc:$tu_err" "2:envlock: error: build-result.json: the image built from envlock.lock.json was not pushed, so it has no registry digest; run \`envlock build --push\`, or name the image with --image REF@DIGEST" \
  "squashfs beside an unpushed build of this lock: refused, never the base image instead"
cd ..

# ---- build errors, word for word
run_cmd m env PATH=/nonexistent "$ENVLOCK" build --template "$TEMPLATE"
check_eq "$m_rc" 3 "missing builder: exit 3"
check_eq "$m_err" "envlock: error: buildah: not found in PATH; install buildah, or choose another builder with --builder buildah|docker|podman" \
  "missing builder: message"
run_cmd u "$ENVLOCK" build --builder kaniko
check_eq "$u_rc:$u_err" "2:envlock: error: unknown builder 'kaniko'; expected buildah, docker or podman" "unknown builder"
sed 's/^RUN echo .*/RUN false/' "$TEMPLATE" > failing.mustache
run_cmd f "$ENVLOCK" build -q --template failing.mustache --insecure-registry "$REG_PLAIN" --result r3/build-result.json
check_eq "$f_rc" 3 "failing build: exit 3"
check_eq "$(head -1 <<<"$f_err")" "envlock: error: buildah build failed (exit 1); the log is in $PWD/r3/build-result.log; its last lines:" \
  "failing build: message"
check_eq "$(tail -n +2 <<<"$f_err")" "$(tail -20 r3/build-result.log | sed 's/^/  | /')" \
  "failing build with -q: the log's last 20 lines follow"
check_contains "$f_err" "  | STEP " "... among them the step that failed"
check_file r3/build-result.log "failing build: the log is kept"
[ ! -e r3/build-result.json ] && ok "failing build: no result" || fail "failing build: no result" "written"

# ---- build.context: locked with its sha256, in the context under files/, drift named
mkdir -p conf && echo "lr: 1" > conf/train.yaml
sed -i 's/^build:$/build:\n  context: [conf\/train.yaml]/' envlock.yaml
run_cmd l2 "$ENVLOCK" lock --insecure-registry "$REG_PLAIN"
check_eq "$l2_rc" 0 "build.context: lock exit 0 ($l2_err)"
check_eq "$(json envlock.lock.json '["context"]')" \
  "[{'path': 'conf/train.yaml', 'sha256': '$(sha256sum conf/train.yaml | cut -d' ' -f1)'}]" \
  "build.context: recorded in the lock"
"$ENVLOCK" context --template "$TEMPLATE" -o ctx4.tar >/dev/null
check_eq "$(tar -xOf ctx4.tar files/conf/train.yaml)" "lr: 1" "build.context: files/conf/train.yaml in the tar"
echo "lr: 2" > conf/train.yaml
run_cmd k "$ENVLOCK" lock --check
check_eq "$k_rc" 1 "build.context: changed file: lock --check exit 1"
check_contains "$k_out" "drift: build.context[conf/train.yaml].sha256: lock has " "build.context: drift named"

# ---- envlock lint: an upstream-style recipe with planted problems; render's output passes
cp "$REPO/tests/data/build/lint/Dockerfile.ci.dev" .
run_cmd li "$ENVLOCK" lint Dockerfile.ci.dev
check_eq "$li_rc" 1 "lint: planted problems: exit 1"
check_eq "$li_out" "$(cat "$REPO/tests/data/build/lint/lint.expected")" "lint: each planted problem, with its line"
"$ENVLOCK" render -o default.Dockerfile
run_cmd lr "$ENVLOCK" lint default.Dockerfile
check_eq "$lr_rc:$lr_out" "0:default.Dockerfile: 0 errors, 0 warnings" "lint: envlock render's Dockerfile passes"
run_cmd ln "$ENVLOCK" lint missing.Dockerfile
check_eq "$ln_rc" 2 "lint: missing file: exit 2"
# Several files and standard input, each with its findings and its summary line.
printf 'FROM busybox:1.36\nRUN git clone --branch main https://git.example.invalid/a.git\n' >a.Dockerfile
printf 'RUN conda install -y numpy && npm install -g yarn\n' >b.Dockerfile
run_cmd lm bash -c '"$ENVLOCK" lint a.Dockerfile - default.Dockerfile <b.Dockerfile'
check_eq "$lm_rc" 1 "lint: several files: exit 1"
check_eq "$lm_out" "a.Dockerfile:1: error: FROM busybox:1.36 is not pinned by digest (write NAME@sha256:DIGEST)
a.Dockerfile:2: error: git clone --branch main https://git.example.invalid/a.git is not pinned to a commit (no git checkout COMMIT, 40 hex digits, follows it in this stage)
a.Dockerfile: 2 errors, 0 warnings
-:1: error: conda install without versions: numpy (write NAME=VERSION)
-:1: error: npm install -g without exact versions: yarn (write NAME@VERSION)
-: 2 errors, 0 warnings
default.Dockerfile: 0 errors, 0 warnings" "lint: several files and -, in the order given"
run_cmd lj "$ENVLOCK" lint a.Dockerfile default.Dockerfile --format json
check_eq "$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["schema"], d["errors"], [f["rule"] for f in d["files"][0]["findings"]])' <<<"$lj_out")" \
  "envlock.lint/v1 2 ['from-not-pinned', 'git-clone-not-pinned']" "lint --format json"
run_cmd ls "$ENVLOCK" lint a.Dockerfile -o lint.sarif
check_eq "$ls_rc:$ls_out" "1:" "lint -o lint.sarif: exit 1, nothing on standard output"
check_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["runs"][0]["results"][1]; print(d["version"], r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"])' lint.sarif)" \
  "2.1.0 git-clone-not-pinned error {'startColumn': 1, 'startLine': 2}" "lint -o FILE.sarif: SARIF by the extension"
run_cmd lf "$ENVLOCK" lint a.Dockerfile --format yaml
check_eq "$lf_rc:$lf_err" "2:envlock lint: --format: 'yaml' is not one of text, json, sarif. See 'envlock lint --help'." \
  "lint --format yaml: refused"
finish
