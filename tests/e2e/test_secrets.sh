# Secrets: every command is run with registry credentials configured in all three places envlock
# reads (ENVLOCK_REGISTRY_* variables, ~/.docker/config.json, Enroot's netrc) and against a
# Bearer-token registry; its standard output, standard error and every file it writes, on
# success and on failure, are searched for the password, the base64 "user:password" pair, the
# tokens the token server issued and a token put in a git URL. None may appear. Hostile inputs
# too: a manifest linked to /proc/self/environ or to the Docker config.json, a FIFO, manifest and
# importer.yaml lines holding a secret, a redirect to a host asking for credentials, a registry
# echoing them. This includes
# `envlock build --push` to the authenticated registry (and a push it refuses), the build log and
# build-result.json, provenance, keygen, provenance sign and provenance verify; without buildah
# those runs are left out and the rest still runs.
. "$REPO/tests/e2e/lib.sh"
# reg_need without buildah: without it only the build, provenance, sign and verify runs are left out.
need_tools docker-registry htpasswd openssl umoci skopeo python3 curl git sha256sum mksquashfs \
  sqfs2tar grep
[ -x /bin/busybox ] || skip "missing /bin/busybox (busybox-static)"
[ -f "$REGISTRY_AUTH_FILE" ] || echo '{}' >"$REGISTRY_AUTH_FILE"
FIXTURE=$REPO/tests/data/megatron-lm/core_v0.19.0
need_fixture "$FIXTURE/uv.lock"

reg_start_auth || skip "docker-registry (auth) did not start"
reg_start_plain || skip "docker-registry (plain) did not start"
reg_start_token "$REG_PLAIN" || skip "token server did not start"
reg_start_faults || skip "fault server did not start"
reg_make_image amd64 amd64 || skip "umoci could not build the test image"
reg_push amd64 "$REG_AUTH/nvidia/pytorch:26.06-py3" --dest-creds "$REG_USER:$REG_PASSWORD"
reg_push amd64 "$REG_PLAIN/nvidia/pytorch:26.06-py3"
D_AUTH=$(reg_digest "$REG_AUTH/nvidia/pytorch:26.06-py3" --creds "$REG_USER:$REG_PASSWORD")
PAIR_B64=$(printf '%s:%s' "$REG_USER" "$REG_PASSWORD" | base64 -w0)
GIT_TOKEN=gitpw-6f1d2c7e

# Credentials in all three places.
export ENVLOCK_REGISTRY_USER=$REG_USER ENVLOCK_REGISTRY_PASSWORD=$REG_PASSWORD
mkdir -p "$HOME/.docker" "$HOME/.config/enroot"
printf '{"auths": {"%s": {"auth": "%s"}}}\n' "$REG_AUTH" "$PAIR_B64" >"$HOME/.docker/config.json"
printf 'machine 127.0.0.1 login %s password %s\n' "$REG_USER" "$REG_PASSWORD" \
  >"$HOME/.config/enroot/.credentials"
export ENROOT_CONFIG_PATH=$HOME/.config/enroot

mkdir -p out proj
ALL=""
n_runs=0
# run NAME CMD...: runs CMD in out/, keeping what it printed.
run() {
  local name=$1; shift
  run_cmd r "$@"
  n_runs=$((n_runs + 1))
  ALL+="== $name (exit $r_rc)"$'\n'"$r_out"$'\n'"$r_err"$'\n'
}

I=(--insecure-registry "$REG_AUTH" --insecure-registry "$REG_PLAIN" --insecure-registry "$REG_TOKEN")
git_make_repo proj/megatron
cp "$FIXTURE/uv.lock" "$FIXTURE/pyproject.toml" proj/
chmod u+w proj/uv.lock proj/pyproject.toml
write_manifest() { # BASE GIT
  cat >proj/envlock.yaml <<YAML
envlock: 1
image: {name: ml/train, tag: v1, repository: $REG_AUTH/ml/train}
base: {image: "$1"}
sources:
  megatron: {git: "$2", ref: v2}
python:
  uv: {version: 0.7.2, sha256: $(printf uv | sha256sum | cut -d' ' -f1)}
YAML
}

# ---- successful runs
run resolve-basic "$ENVLOCK" resolve "${I[@]}" "$REG_AUTH/nvidia/pytorch:26.06-py3"
check_contains "$r_out" "digest: $D_AUTH" "resolve with basic credentials works"
run resolve-token "$ENVLOCK" resolve "${I[@]}" --format json "$REG_TOKEN/nvidia/pytorch:26.06-py3"
check_eq "$r_rc" 0 "resolve through the token server works"
write_manifest "$REG_AUTH/nvidia/pytorch:26.06-py3" megatron
run lock "$ENVLOCK" lock "${I[@]}" -f proj/envlock.yaml
check_eq "$r_rc" 0 "lock against the auth registry works"
run lock-check "$ENVLOCK" lock "${I[@]}" -f proj/envlock.yaml --check --refresh
check_eq "$r_rc" 0 "lock --check --refresh works"
cp proj/envlock.lock.json out/
run render "$ENVLOCK" render --lock proj/envlock.lock.json -o out/Dockerfile
check_eq "$r_rc" 0 "render works"
run squashfs "$ENVLOCK" squashfs "${I[@]}" --lock proj/envlock.lock.json -o out/app.sqsh
check_eq "$r_rc" 0 "squashfs from the auth registry works"
run squashfs-verify "$ENVLOCK" squashfs verify out/app.sqsh --result out/app.squashfs-result.json
bash "$REPO/tests/data/verify/make_rootfs.sh" root
run verify "$ENVLOCK" verify --root root --lock proj/envlock.lock.json --format json -o out/report.json \
  --junit out/report.xml
check_file out/report.json "verify wrote its report"
run diff "$ENVLOCK" diff proj/envlock.lock.json proj/envlock.lock.json
run handover "$ENVLOCK" handover --lock proj/envlock.lock.json --squashfs-result out/app.squashfs-result.json \
  -o out/handover.md
check_eq "$r_rc" 0 "handover works"

# ---- build, push, provenance, sign, verify. envlock hands the builder its own credentials in an
# auth file (--authfile); buildah's own lookup finds none (lib.sh points REGISTRY_AUTH_FILE at an
# empty one), so a push that works proves they arrived.
BUILD_FILES=""
run keygen "$ENVLOCK" keygen -o out/signing.key
check_eq "$r_rc" 0 "keygen works"
if command -v buildah >/dev/null 2>&1; then
  B=("$ENVLOCK" build -q --template "$REPO/tests/data/build/tiny.mustache"
    --lock proj/envlock.lock.json --insecure-registry "$REG_AUTH")
  run build "${B[@]}" --push --result out/build/build-result.json
  check_eq "$r_rc" 0 "build --push to the auth registry works ($(tail -3 <<<"$r_err"))"
  check_file out/build/build-result.log "build: the log is under out/"
  BUILT=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["image"]["digest"])' \
    out/build/build-result.json 2>/dev/null)
  check_eq "$BUILT" "$(reg_digest "$REG_AUTH/ml/train:v1" --creds "$REG_USER:$REG_PASSWORD")" \
    "build: the pushed digest is the registry's"
  run provenance "$ENVLOCK" provenance --lock proj/envlock.lock.json \
    --build-result out/build/build-result.json -o out/provenance.json
  check_eq "$r_rc" 0 "provenance works"
  run sign "$ENVLOCK" provenance sign --key out/signing.key out/provenance.json \
    -o out/provenance.dsse.json
  check_eq "$r_rc" 0 "provenance sign works"
  run verify-dsse "$ENVLOCK" provenance verify --pub out/signing.key.pub out/provenance.dsse.json \
    --image-digest "$BUILT"
  check_eq "$r_rc" 0 "provenance verify works"
  check_contains "$(cat out/build/build-result.log)" "--authfile " "build: the builder got an auth file"
  # A failing push: the base image from the plain registry, the target the auth registry, and
  # envlock given a wrong password for it (which holds the right one as its prefix).
  sed "s|base: {image: \"$REG_AUTH/|base: {image: \"$REG_PLAIN/|" proj/envlock.yaml >proj/push.yaml
  run lock-push "$ENVLOCK" lock "${I[@]}" -f proj/push.yaml -o proj/push.lock.json
  check_eq "$r_rc" 0 "lock with a plain base image works"
  run build-denied env ENVLOCK_REGISTRY_PASSWORD="$REG_PASSWORD-wrong" "$ENVLOCK" build -q \
    --template "$REPO/tests/data/build/tiny.mustache" --lock proj/push.lock.json \
    --insecure-registry "$REG_AUTH" --insecure-registry "$REG_PLAIN" --push \
    --result out/build-denied/build-result.json
  check_eq "$r_rc" 3 "push with refused credentials fails (exit 3)"
  check_eq "$(head -1 <<<"$r_err")" \
    "envlock: error: buildah push failed (exit 125); the log is in $PWD/out/build-denied/build-result.log; its last lines:" \
    "push with refused credentials: message"
  check_contains "$(cat out/build-denied/build-result.log 2>/dev/null)" \
    "$REG_AUTH/ml/train: unauthorized: authentication required" \
    "push with refused credentials: the registry refused them (build-result.log)"
  BUILD_FILES="out/build-denied/build-result.log out/build/build-result.json out/build/build-result.log "
  BUILD_FILES+="out/provenance.dsse.json out/provenance.json "
else
  echo "SKIP (part): buildah is not installed; build, provenance, sign and verify not run"
fi

# ---- failures: wrong password, unknown repository, refused token, closed port, TLS without CA,
# a git URL with a token in it
run wrong-password env ENVLOCK_REGISTRY_PASSWORD="$REG_PASSWORD-wrong" \
  "$ENVLOCK" resolve "${I[@]}" "$REG_AUTH/nvidia/pytorch:26.06-py3"
check_eq "$r_rc" 3 "wrong password fails (exit 3)"
run unknown "$ENVLOCK" resolve "${I[@]}" "$REG_AUTH/nothere:v1"
run token-refused env -u ENVLOCK_REGISTRY_USER -u ENVLOCK_REGISTRY_PASSWORD -u ENROOT_CONFIG_PATH \
  HOME="$WORK/empty-home" \
  "$ENVLOCK" resolve "${I[@]}" "$REG_TOKEN/nvidia/pytorch:26.06-py3"
check_eq "$r_rc" 3 "token endpoint refusing anonymous fails (exit 3)"
run closed-port "$ENVLOCK" resolve --insecure-registry "127.0.0.1:$(free_port)" --registry-attempts 1 \
  "127.0.0.1:$(free_port)/x:v1"
# Loopback names are insecure by default; 0.0.0.0 reaches the same registry under another name.
run tls "$ENVLOCK" resolve "0.0.0.0:${REG_AUTH##*:}/nvidia/pytorch:26.06-py3"
check_eq "$r_rc" 3 "https to a plain registry fails (exit 3)"
write_manifest "$REG_AUTH/nvidia/pytorch:26.06-py3" "https://oauth2:$GIT_TOKEN@127.0.0.1:1/megatron.git"
run git-token "$ENVLOCK" lock "${I[@]}" -f proj/envlock.yaml -o out/bad.lock.json
check_eq "$r_rc" 2 "a token in a git URL is refused (exit 2)"
check_contains "$r_err" "must not contain credentials" "a token in a git URL: message"

# ---- a manifest that is not the project's own file is never quoted: a link to the process's
# environment or to the Docker config.json (outside the git work tree), a FIFO. Each read is
# bounded by `timeout`, so a hang fails instead of hanging.
HERE=$(pwd -P)
mkdir -p hostile && git -C hostile init -q
ln -s /proc/self/environ hostile/envlock.yaml
run environ timeout 60 "$ENVLOCK" lock --check -f hostile/envlock.yaml
check_eq "$r_rc:$r_out" "2:" "a manifest linked to /proc/self/environ: exit 2"
check_eq "$r_err" "envlock: error: hostile/envlock.yaml: a symbolic link leading outside the project (to /proc/self/environ); a manifest must be a file inside $HERE/hostile" \
  "a manifest linked to /proc/self/environ: refused, nothing quoted"
rm hostile/envlock.yaml
ln -s ../home/.docker/config.json hostile/envlock.yaml
run docker-config timeout 60 "$ENVLOCK" lock -f hostile/envlock.yaml
check_eq "$r_err" "envlock: error: hostile/envlock.yaml: a symbolic link leading outside the project (to ../home/.docker/config.json); a manifest must be a file inside $HERE/hostile" \
  "a manifest linked to the Docker config.json: refused, nothing quoted"
check_eq "$(ls -A hostile | tr '\n' ' ')" ".git envlock.yaml " "a refused manifest: no lock written"
rm hostile/envlock.yaml
mkfifo hostile/envlock.yaml
run fifo timeout 60 "$ENVLOCK" lock --check -f hostile/envlock.yaml
check_eq "$r_rc:$r_err" "2:envlock: error: hostile/envlock.yaml: is a FIFO, not a regular file" \
  "a FIFO as the manifest: refused before it is read"
rm hostile/envlock.yaml
# A manifest of the project whose faulty line holds a secret: the line is not shown. Here the
# password, the base64 pair, and a secret-named variable of the environment.
export CI_JOB_TOKEN=ci-token-5b2e9d41
for value in "$REG_PASSWORD" "$PAIR_B64" "$CI_JOB_TOKEN"; do
  printf 'envlock: 1\nimage: {name: ml/train, tag: v1}\nnotes: "%s"\n' "$value" >hostile/envlock.yaml
  run secret-line timeout 60 "$ENVLOCK" lock --check -f hostile/envlock.yaml
  check_eq "$r_rc:$r_err" "2:envlock: error: hostile/envlock.yaml:3:1: unknown key 'notes'; accepted keys: envlock, image, base, sources, python, build, expect, enroot, training, launch
(line not shown: it holds a password or token)" "a manifest line holding '${value:0:8}...': not shown"
done
printf 'envlock: 1\nimage: {name: ml/train, tag: v1}\nnotes: "not a secret"\n' >hostile/envlock.yaml
run plain-line timeout 60 "$ENVLOCK" lock --check -f hostile/envlock.yaml
check_contains "$r_err" $'\nnotes: "not a secret"\n^' "a line holding no secret is still quoted"
# The importer's configuration: its secret lines are not shown, and a link to the environment,
# followed (an administrator places this file), shows nothing of it.
printf 'locks: [%s]\ncache: %s\npolicy: "%s"\n' "$PWD/out" "$PWD/cache" "$REG_PASSWORD" \
  >hostile/importer.yaml
run importer-line env ENVLOCK_IMPORTER_CONFIG=hostile/importer.yaml timeout 60 "$ENVLOCK" importer get docker://x
check_eq "$r_rc:$r_err" "2:envlock: error: importer configuration (chosen by ENVLOCK_IMPORTER_CONFIG): hostile/importer.yaml:3:9: 'policy' must be refuse or warn, got '***'
(line not shown: it holds a password or token)" "importer.yaml: a line holding the password is not shown"
run importer-environ env ENVLOCK_IMPORTER_CONFIG=/proc/self/environ timeout 60 "$ENVLOCK" importer get docker://x
check_eq "$r_rc" 2 "importer.yaml linked to the environment: exit 2"
check_not_contains "$r_err" "$REG_PASSWORD" "importer.yaml linked to the environment: no password shown"
run importer-zero env ENVLOCK_IMPORTER_CONFIG=/dev/zero timeout 60 "$ENVLOCK" importer get docker://x
check_eq "$r_rc:$r_err" "2:envlock: error: importer configuration (chosen by ENVLOCK_IMPORTER_CONFIG): /dev/zero: is a character device, not a regular file" \
  "importer.yaml as /dev/zero: refused before it is read"

# ---- credentials go only where they belong. A blob redirected to another host that asks for
# its own Bearer token gets nothing: neither the registry's basic credentials for its realm nor,
# then, its token at the registry.
F=(--insecure-registry "$REG_FAULT" --registry-timeout 2)
CFG_DIGEST=$(curl -s "http://$REG_FAULT/v2/ok/app/manifests/v1" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["config"]["digest"])')
run stranger timeout 60 "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/stranger/app:v1"
check_eq "$r_rc:$r_err" "3:envlock: error: GET http://$REG_FAULT/v2/stranger/app/blobs/$CFG_DIGEST: HTTP 401 from http://$REG_PEER/stranger/$CFG_DIGEST (a redirect to another host); no credentials are sent there" \
  "a redirect to a host asking for credentials: refused, named"
check_contains "$(cat "$WORK/reg/fault.log")" "GET /v2/stranger/app/manifests/v1 auth=Bearer bearer=fault-token-" \
  "stranger: the registry got its own token"
check_contains "$(cat "$WORK/reg/peer.log")" "GET /stranger/$CFG_DIGEST auth=none" \
  "stranger: the other host was asked without credentials"
check_not_contains "$(cat "$WORK/reg/peer.log")" "/token" "stranger: no token requested from the other host's realm"
check_not_contains "$(cat "$WORK/reg/peer.log")" "auth=Basic" "stranger: no basic credentials sent to the other host"
check_not_contains "$(cat "$WORK/reg/fault.log")" "stranger-token" "stranger: its token never reached the registry"
# A registry that echoes the Authorization header and the password in its error code.
run echo timeout 60 "$ENVLOCK" resolve "${F[@]}" "$REG_FAULT/echo/app:v1"
check_eq "$r_rc:$r_err" "3:envlock: error: GET http://$REG_FAULT/v2/echo/app/manifests/v1: HTTP 403 (denied basic *** ***)" \
  "a registry echoing the credentials: scrubbed from its error code"

# ---- nothing leaks: the printed text, and every file the commands wrote
TOKENS=$(sed -n 's/^ISSUED //p' "$WORK/reg/token.log" | sort -u)
# Every file the commands wrote (the manifest and the inputs copied in are not outputs).
mapfile -t written < <(find out proj -type f ! -path 'proj/megatron/*' ! -name envlock.yaml \
  ! -name uv.lock ! -name pyproject.toml | sort)
check_eq "$(( ${#written[@]} >= 8 ))" 1 "the commands wrote files to search (${#written[@]})"
check_eq "$(printf '%s\n' "${written[@]}" | grep -E '^out/(build|prov)' | tr '\n' ' ')" \
  "${BUILD_FILES:-}" "the build's log and result, the provenance and its envelope are searched"
check_ne "$(grep -c '^GET /token' "$WORK/reg/token.log")" 0 "the token server issued tokens"
for secret in "$REG_PASSWORD" "$PAIR_B64" "$GIT_TOKEN" "$CI_JOB_TOKEN" $TOKENS; do
  check_not_contains "$ALL" "$secret" "no output of $n_runs runs shows '${secret:0:8}...'"
  check_eq "$(grep -l -a -F -e "$secret" "${written[@]}" | tr '\n' ' ')" "" \
    "no written file shows '${secret:0:8}...'"
done
finish
