# What a new user meets first, from a clone and a project of their own (issue 34, point 3): every
# error says what to do, the README tour's keygen works inside a git project, an installed copy is
# stripped and its --help points to its own manual, and the test tooling itself (fuzz.sh's check
# that a target ran enough inputs, install-deps.sh's demo set). No service is started.
. "$REPO/tests/e2e/lib.sh"
need_tools git python3 cmake readelf
. "$REPO/tests/e2e/lib/gitrepo.sh"

# ---- a git project of one's own, with no manifest yet
mkdir -p proj/sub && git_env git -C proj init -q -b main
cd proj/sub
run_cmd m "$ENVLOCK" lock
check_eq "$m_rc:$m_err" "2:envlock: error: no envlock.yaml in here ($WORK/proj/sub) and the folders above it up to $WORK/proj (the top of its git work tree); run envlock in the project's folder, or name the manifest with -f FILE" \
  "no manifest: the folders searched, and what to do"
cd "$WORK/proj"

# ---- a manifest whose uv.lock was never made
cp "$REPO/examples/demo/envlock.yaml" "$REPO/examples/demo/pyproject.toml" .
run_cmd u "$ENVLOCK" lock
check_eq "$u_rc:$u_err" "2:envlock: error: python.project: uv.lock does not exist; run 'uv lock' to make it (and commit it), then 'envlock lock' again" \
  "no uv.lock: run uv lock"

# ---- the README tour's keygen, as printed, inside this git project
run_cmd k "$ENVLOCK" keygen
check_eq "$k_rc" 0 "envlock keygen in a git project: exit 0 ($k_err)"
check_file "$HOME/.config/envlock/signing.key" "the key is outside the project, in ~/.config/envlock"
check_eq "$(git status --porcelain --untracked-files=all | grep -c key)" 0 "nothing key-like for git to add"
run_cmd ko "$ENVLOCK" keygen -o key
check_eq "$ko_rc" 2 "keygen -o key inside the work tree is still refused (the safety stays)"

# ---- an unknown option: a shortened one gets its did-you-mean, as a misspelt one does
run_cmd o "$ENVLOCK" lock --out x.json
check_eq "$o_rc:$o_err" "2:envlock lock: unknown option '--out'; did you mean '--output'? See 'envlock lock --help'." \
  "--out: did you mean --output"

# ---- envlock squashfs: every missing option at once; a tag without digest points to resolve
run_cmd s env -u SOURCE_DATE_EPOCH "$ENVLOCK" squashfs
check_eq "$s_rc:$s_err" "2:envlock: error: -o IMAGE.sqsh is required; --image REF@DIGEST is required unless --lock, --oci-layout or --build-result is given; --source-date-epoch (or SOURCE_DATE_EPOCH in the environment) is required without --lock (Enroot's output is only reproducible with SOURCE_DATE_EPOCH)" \
  "squashfs with nothing: the three missing options named in one run"
run_cmd t "$ENVLOCK" squashfs --image registry.example.invalid/ml/train:v1 --source-date-epoch 0 -o t.sqsh
check_eq "$t_rc:$t_err" "2:envlock: error: --image 'registry.example.invalid/ml/train:v1' has no digest; give REF@sha256:... so the image is pinned (\`envlock resolve registry.example.invalid/ml/train:v1\` prints the digest it points to now)" \
  "an image without a digest: points to envlock resolve"
run_cmd v "$ENVLOCK" squashfs verify nothere.sqsh
check_eq "$v_rc:$v_err" "2:envlock: error: nothere.sqsh: no such file (the .sqsh to verify)" \
  "squashfs verify of a missing file: says it does not exist"

# ---- envlock-verify without --lock: where the lock was looked for, and --lock
mkdir -p emptyroot
run_cmd r "$ENVLOCK_VERIFY" --root emptyroot
check_eq "$r_rc" 2 "envlock-verify --root of an image without its lock: exit 2"
check_contains "$r_err" "emptyroot/etc/envlock/lock.json" "... names where it looked"
check_contains "$r_err" "; the image was not built with --with-verifier: pass --lock FILE" "... and what to do"
if [ ! -e /etc/envlock/lock.json ]; then
  run_cmd l "$ENVLOCK_VERIFY"
  check_eq "$l_rc" 2 "envlock-verify on a host without /etc/envlock/lock.json: exit 2"
  check_contains "$l_err" "/etc/envlock/lock.json" "... names the default lock"
  check_contains "$l_err" "; outside an image built with --with-verifier, pass --lock FILE" "... and what to do"
fi
cd "$WORK"

# ---- cmake --install: stripped executables, the manual, --help pointing to it
if [ -f "$REPO/build/cmake_install.cmake" ]; then
  run_cmd in cmake --install "$REPO/build" --prefix "$WORK/prefix"
  check_eq "$in_rc" 0 "cmake --install: exit 0 ($(tail -2 <<<"$in_err"))"
  for exe in envlock envlock-verify; do
    check_eq "$(readelf -S "$WORK/prefix/bin/$exe" | grep -c '\.debug_info')" 0 "installed $exe is stripped"
  done
  check_file "$WORK/prefix/share/doc/envlock/manual/lock.md" "the manual is installed"
  check_file "$WORK/prefix/share/doc/envlock/formats/lock.md" "the formats are installed"
  run_cmd h "$WORK/prefix/bin/envlock" lock --help
  check_contains "$h_out" "Manual: $WORK/prefix/share/doc/envlock/manual/lock.md" \
    "the installed envlock's --help points to its installed manual"
  run_cmd hb "$ENVLOCK" lock --help
  check_contains "$hb_out" "Manual: docs/manual/lock.md" "the build tree's envlock points to docs/"
fi

# ---- fuzz.sh: a target that runs too few inputs is not clean
. "$REPO/scripts/lib/fuzz_stats.sh"
cat >fast.log <<'LOG'
INFO: Running with entropic power schedule (0xFF, 100).
#2	INITED cov: 1184 ft: 1185 corp: 5/4997b exec/s: 0 rss: 38Mb
Done 118233 runs in 8 second(s)
stat::number_of_executed_units: 118233
stat::average_exec_per_sec:     14779
LOG
cat >slow.log <<'LOG'
#2	INITED cov: 2210 ft: 2211 corp: 5/4997b exec/s: 0 rss: 64Mb
Done 10 runs in 9 second(s)
stat::number_of_executed_units: 10
stat::average_exec_per_sec:     1
LOG
printf '==1== ERROR: libFuzzer: deadly signal\n' >crashed.log
check_eq "$(fuzz_stats fast.log)" "118233 8" "fuzz_stats: executions and seconds of a run"
check_eq "$(fuzz_stats slow.log)" "10 9" "fuzz_stats: a slow run"
check_eq "$(fuzz_stats crashed.log)" "? ?" "fuzz_stats: a run without final stats"
fuzz_enough 118233 1000 && ok "118233 runs are enough" || fail "enough" "refused"
fuzz_enough 10 1000 && fail "10 runs" "counted as enough" || ok "10 runs in 9 s are too few"
fuzz_enough "?" 1000 && fail "no stats" "counted as enough" || ok "a run without stats is not enough"
# fuzz.sh itself, on a stand-in target that prints what a slow libFuzzer run prints.
mkdir -p fz/tests/fuzz
cat >fz/tests/fuzz/fuzz_manifest <<'SH'
#!/bin/sh
case "$*" in *-max_total_time=*) ;; *) exit 0 ;; esac # replaying regressions: all pass
printf 'Done %s runs in 9 second(s)\nstat::number_of_executed_units: %s\n' "$RUNS" "$RUNS" >&2
SH
chmod +x fz/tests/fuzz/fuzz_manifest
run_cmd fs env RUNS=10 TMPDIR="$WORK" bash "$REPO/scripts/fuzz.sh" --build "$WORK/fz" --seconds 1 manifest
check_eq "$fs_rc" 1 "fuzz.sh: a target with 10 runs fails"
check_contains "$fs_out" "fuzz_manifest: TOO FEW RUNS: 10 runs in 9 s (at least 1000 wanted)" "... saying why"
run_cmd ff env RUNS=5000 TMPDIR="$WORK" bash "$REPO/scripts/fuzz.sh" --build "$WORK/fz" --seconds 1 manifest
check_eq "$ff_rc" 0 "fuzz.sh: a target with 5000 runs passes"
check_contains "$ff_out" "fuzz_manifest: 5000 runs in 9 s, corpus " "... with its figures"

# ---- install-deps.sh: the demo installs only what it uses
demo_set=$(bash "$REPO/scripts/install-deps.sh" --demo --list)
all_set=$(bash "$REPO/scripts/install-deps.sh" --list)
for p in buildah docker-registry skopeo umoci squashfs-tools busybox-static git; do
  grep -qx "$p" <<<"$demo_set" && ok "the demo's set has $p" || fail "demo set" "no $p"
done
for p in slurmd slurmctld munge podman clang-tidy python3-securesystemslib; do
  grep -qx "$p" <<<"$demo_set" && fail "demo set" "has $p, which the demo does not use" ||
    ok "the demo's set leaves out $p"
  grep -qx "$p" <<<"$all_set" && ok "the tests' set has $p" || fail "tests set" "no $p"
done
finish
