# Secrets: every command is run with registry credentials configured in all three places envlock
# reads (ENVLOCK_REGISTRY_* variables, ~/.docker/config.json, Enroot's netrc) and against a
# Bearer-token registry; its standard output, standard error and every file it writes, on
# success and on failure, are searched for the password, the base64 "user:password" pair, the
# tokens the token server issued and a token put in a git URL. None may appear.
. "$REPO/tests/e2e/lib.sh"
reg_need
need_tools git sha256sum mksquashfs sqfs2tar grep
FIXTURE=$SHARED/fixtures/megatron-lm/core_v0.19.0
[ -f "$FIXTURE/uv.lock" ] || skip "Megatron-LM fixtures missing ($FIXTURE)"

reg_start_auth || skip "docker-registry (auth) did not start"
reg_start_plain || skip "docker-registry (plain) did not start"
reg_start_token "$REG_PLAIN" || skip "token server did not start"
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
run resolve-token "$ENVLOCK" resolve "${I[@]}" --json "$REG_TOKEN/nvidia/pytorch:26.06-py3"
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
run squashfs-verify "$ENVLOCK" squashfs verify out/app.sqsh --result out/squashfs-result.json
bash "$REPO/tests/data/verify/make_rootfs.sh" root
run verify "$ENVLOCK" verify --root root --lock proj/envlock.lock.json --json out/report.json \
  --junit out/report.xml
check_file out/report.json "verify wrote its report"
run diff "$ENVLOCK" diff proj/envlock.lock.json proj/envlock.lock.json
run handover "$ENVLOCK" handover --lock proj/envlock.lock.json --squashfs-result out/squashfs-result.json \
  -o out/handover.md
check_eq "$r_rc" 0 "handover works"

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
run tls "$ENVLOCK" resolve "$REG_AUTH/nvidia/pytorch:26.06-py3"
check_eq "$r_rc" 3 "https to a plain registry fails (exit 3)"
write_manifest "$REG_AUTH/nvidia/pytorch:26.06-py3" "https://oauth2:$GIT_TOKEN@127.0.0.1:1/megatron.git"
run git-token "$ENVLOCK" lock "${I[@]}" -f proj/envlock.yaml -o out/bad.lock.json
check_eq "$r_rc" 2 "a token in a git URL is refused (exit 2)"
check_contains "$r_err" "must not contain credentials" "a token in a git URL: message"

# ---- nothing leaks: the printed text, and every file the commands wrote
TOKENS=$(sed -n 's/^ISSUED //p' "$WORK/reg/token.log" | sort -u)
# Every file the commands wrote (the manifest and the inputs copied in are not outputs).
mapfile -t written < <(find out proj -type f ! -path 'proj/megatron/*' ! -name envlock.yaml \
  ! -name uv.lock ! -name pyproject.toml | sort)
check_eq "$(( ${#written[@]} >= 8 ))" 1 "the commands wrote files to search (${#written[@]})"
check_ne "$(grep -c '^GET /token' "$WORK/reg/token.log")" 0 "the token server issued tokens"
for secret in "$REG_PASSWORD" "$PAIR_B64" "$GIT_TOKEN" $TOKENS; do
  check_not_contains "$ALL" "$secret" "no output of $n_runs runs shows '${secret:0:8}...'"
  check_eq "$(grep -l -a -F -e "$secret" "${written[@]}" | tr '\n' ' ')" "" \
    "no written file shows '${secret:0:8}...'"
done
finish
