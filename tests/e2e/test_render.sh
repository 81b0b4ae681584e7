# envlock render: the hand-written lock of tests/data/render, then a real lock made by
# `envlock lock` against docker-registry on loopback and a git repository. Checks that nothing
# floats (no :latest, every FROM by digest, every download checked, uv sync --locked), that two
# renders give the same bytes, the labels, the template search order and the error messages.
. "$REPO/tests/e2e/lib.sh"
need_tools git skopeo umoci docker-registry curl python3 sha256sum cmp
[ -x /bin/busybox ] || skip "missing /bin/busybox (busybox-static)"

GOOD=$REPO/tests/data/render/good_lock.json

# unchecked_downloads FILE: how many instructions (continuation lines joined) fetch with curl or
# wget, or ADD a URL, without a sha256sum -c.
unchecked_downloads() {
  python3 - "$1" <<'PY'
import re, sys
text = re.sub(r"\\\n", " ", open(sys.argv[1]).read())
bad = [l for l in text.splitlines()
       if (re.search(r"\b(curl|wget)\b", l) or re.match(r"ADD\s+https?://", l))
       and "sha256sum -c" not in l]
print(len(bad))
PY
}

# no_floating NAME FILE: the checks every rendered Dockerfile must pass.
no_floating() {
  local text
  text=$(cat "$2")
  check_eq "$(head -1 "$2")" "# syntax=docker/dockerfile:1" "$1: line 1 is the syntax directive"
  check_not_contains "$text" ":latest" "$1: no :latest"
  check_eq "$(grep -c '^FROM ' "$2")" "$(grep -c '^FROM [^ ]*@sha256:[0-9a-f]\{64\} ' "$2")" \
    "$1: every FROM is pinned by digest"
  check_eq "$(unchecked_downloads "$2")" "0" "$1: every download is checked with sha256sum -c"
  check_contains "$text" "uv sync --locked" "$1: uv sync --locked"
  check_contains "$text" "ENV UV_LOCKED=1" "$1: UV_LOCKED=1"
  check_not_contains "$text" "pip install" "$1: no pip install"
}

# ---- the hand-written lock
run_cmd r "$ENVLOCK" render --lock "$GOOD"
check_eq "$r_rc" 0 "stdout: exit 0 ($r_err)"
printf '%s\n' "$r_out" > stdout.Dockerfile
run_cmd o "$ENVLOCK" render --lock "$GOOD" -o out.Dockerfile
check_eq "$o_rc:$o_out" "0:" "-o: exit 0, nothing on stdout"
cmp -s out.Dockerfile stdout.Dockerfile && ok "-o writes what stdout shows" ||
  fail "-o writes what stdout shows" "$(diff out.Dockerfile stdout.Dockerfile | head)"
cmp -s out.Dockerfile "$REPO/tests/data/render/golden.Dockerfile" && ok "the golden Dockerfile" ||
  fail "the golden Dockerfile" "$(diff out.Dockerfile "$REPO/tests/data/render/golden.Dockerfile" | head)"
no_floating "good lock" out.Dockerfile
"$ENVLOCK" render --lock "$GOOD" --with-verifier -o verifier.Dockerfile
check_contains "$(cat verifier.Dockerfile)" "COPY envlock/envlock-verify /usr/local/bin/envlock-verify" \
  "--with-verifier: copies envlock-verify"
check_contains "$(cat verifier.Dockerfile)" "COPY envlock/lock.json /etc/envlock/lock.json" \
  "--with-verifier: copies the lock"
check_not_contains "$(cat out.Dockerfile)" "envlock-verify" "without --with-verifier: no verifier"

# ---- errors, word for word
run_cmd e "$ENVLOCK" render --lock missing.json
check_eq "$e_rc" 2 "missing lock: exit 2"
check_eq "$e_err" "envlock: error: missing.json: no such file; run 'envlock lock' to create it" \
  "missing lock: message"
run_cmd e "$ENVLOCK" render --lock "$REPO/tests/data/render/bad_digest_lock.json"
check_eq "$e_rc" 2 "floating digest: exit 2"
check_eq "$e_err" "envlock: error: $REPO/tests/data/render/bad_digest_lock.json: base_image.digest: 'sha256:latest' is not a sha256 digest (sha256: and 64 hex digits)" \
  "floating digest: message"
printf 'FROM {{base_image.pined}}\n' > typo.mustache
run_cmd e "$ENVLOCK" render --lock "$GOOD" --template typo.mustache
check_eq "$e_rc" 2 "unknown template name: exit 2"
check_eq "$e_err" "envlock: error: typo.mustache: unknown name 'base_image.pined'; did you mean 'base_image.pinned'?" \
  "unknown template name: message"
run_cmd e "$ENVLOCK" render --lock "$GOOD" -o no/such/dir/Dockerfile
check_eq "$e_rc" 3 "unwritable output: exit 3"
[ ! -e no ] && ok "unwritable output: nothing written" || fail "unwritable output: nothing written" "no/ exists"

# ---- the template search order: an installed share/envlock/templates comes first
mkdir -p inst/bin inst/share/envlock/templates
cp "$ENVLOCK" inst/bin/envlock
printf '# site template\nFROM {{base_image.pinned}}\n' > inst/share/envlock/templates/Dockerfile.mustache
run_cmd s inst/bin/envlock render --lock "$GOOD"
check_eq "$s_out" "# site template
FROM registry.example.invalid/nvidia/pytorch@sha256:$(printf 'a%.0s' $(seq 64))" \
  "installed template is used first"
rm inst/share/envlock/templates/Dockerfile.mustache
run_cmd s inst/bin/envlock render --lock "$GOOD"
check_eq "$s_out" "$r_out" "without it, the source tree's template"

# ---- a real lock: registry, base image, git repository, envlock lock
reg_start_plain || skip "docker-registry did not start"
reg_make_image base amd64 >/dev/null && reg_push base "$REG_PLAIN/demo/base:v1" ||
  skip "could not build and push the base image with umoci and skopeo"
DIGEST=$(reg_digest "$REG_PLAIN/demo/base:v1")
mkdir -p proj
cp "$REPO"/examples/demo/{envlock.yaml,pyproject.toml,uv.lock} proj/
sed -i "s/127\.0\.0\.1:5000/$REG_PLAIN/g; s/ref: core_v0.0.1/ref: v2/" proj/envlock.yaml
git_make_repo proj/megatron-lm
COMMIT=$(git_commit_id proj/megatron-lm v2)
cd proj
if ! "$ENVLOCK" --help | grep -qE '^  lock +'; then
  echo "note: 'envlock lock' is not in this build; the real-lock part is not run"
  finish
fi
run_cmd l "$ENVLOCK" lock --insecure-registry "$REG_PLAIN"
check_eq "$l_rc" 0 "lock: exit 0 ($l_err)"
run_cmd r1 "$ENVLOCK" render --with-verifier -o Dockerfile
check_eq "$r1_rc" 0 "real lock: render exit 0 ($r1_err)"
"$ENVLOCK" render --with-verifier -o Dockerfile.again
cmp -s Dockerfile Dockerfile.again && ok "real lock: two renders, identical bytes" ||
  fail "real lock: two renders, identical bytes" "$(diff Dockerfile Dockerfile.again | head)"
no_floating "real lock" Dockerfile
D=$(cat Dockerfile)
check_contains "$D" "FROM $REG_PLAIN/demo/base@$DIGEST AS main" "real lock: FROM the pushed digest"
check_contains "$D" "LABEL org.opencontainers.image.revision=\"$COMMIT\"" "real lock: revision label"
check_contains "$D" "RUN echo $COMMIT > /opt/megatron-lm/.envlock-commit" "real lock: .envlock-commit"
check_contains "$D" "LABEL org.opencontainers.image.base.digest=\"$DIGEST\"" "real lock: base digest label"
check_contains "$D" "LABEL org.opencontainers.image.base.name=\"$REG_PLAIN/demo/base:v1\"" \
  "real lock: base name label"
check_contains "$D" "LABEL io.envlock.lock.sha256=\"$(sha256sum envlock.lock.json | cut -d' ' -f1)\"" \
  "real lock: lock sha256 label == sha256 of envlock.lock.json"
check_contains "$D" "echo \"$(sha256sum uv.lock | cut -d' ' -f1)  uv.lock\" | sha256sum -c -" \
  "real lock: uv.lock checked against its sha256"
check_not_contains "$D" "$WORK" "real lock: no absolute path of this machine"

# ---- from a folder of the project: the lock and the manifest above it, as git finds .git
mkdir -p conf/deep
(cd conf/deep && "$ENVLOCK" render --with-verifier) >below.Dockerfile 2>below.err
check_eq "$?:$(cat below.err)" "0:envlock: using ../../envlock.lock.json (found in $WORK/proj)" \
  "render from below: says which lock it found"
cmp -s Dockerfile below.Dockerfile && ok "render from below: the same Dockerfile" ||
  fail "render from below: the same Dockerfile" "$(diff Dockerfile below.Dockerfile | head -5)"
(cd conf/deep && "$ENVLOCK" lock --check --insecure-registry "$REG_PLAIN") >below.out 2>below.err
check_eq "$?:$(head -1 below.err)" "0:envlock: using ../../envlock.yaml (found in $WORK/proj)" \
  "lock --check from below: the manifest above"
(cd conf/deep && "$ENVLOCK" render --lock envlock.lock.json) >/dev/null 2>below.err
check_eq "$?" 2 "an explicit --lock is not looked for above"
finish
