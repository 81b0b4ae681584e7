# Crash safety: envlock killed with SIGKILL at random points while it writes the lock, a
# verification report, a .sqsh or a build context tar leaves the old file or the new one in
# place, never a torn one.
# Each writer is killed many times at delays spread over its normal run time; the figures ("kill
# points") say how many kills landed while the process was still running.
. "$REPO/tests/e2e/lib.sh"
need_tools git skopeo umoci docker-registry curl python3 sha256sum mksquashfs
FIXTURE=$REPO/tests/data/megatron-lm/core_v0.19.0
need_fixture "$FIXTURE/uv.lock"
KILLS=${ENVLOCK_CRASH_KILLS:-40}

digest_of() { sha256sum <"$1" | cut -d' ' -f1; }
# The report's bytes without its run metadata (host, times), which differ on every run.
report_body() {
  python3 -c 'import json,sys
try:
    r = json.load(open(sys.argv[1]))
except Exception:
    print("torn"); sys.exit()
r.pop("run", None); print(json.dumps(r, sort_keys=True))' "$1"
}

# crash_loop NAME TARGET SHAPE CMD...: runs CMD once to learn the new contents of TARGET and its
# run time, then KILLS times from the old contents, each killed after a random delay within that
# run time. SHAPE prints a file's comparable form ("digest_of" or "report_body").
crash_loop() {
  local name=$1 target=$2 shape=$3
  shift 3
  local old new got start ms delay pid rc i killed=0 finished=0 kept_old=0 torn=0
  cp "$target" "$WORK/$name.old"
  old=$("$shape" "$target")
  start=$(date +%s%N)
  "$@" >"$WORK/$name.log" 2>&1 || { fail "$name: a full run" "$(tail -3 "$WORK/$name.log")"; return; }
  ms=$(( ($(date +%s%N) - start) / 1000000 + 2 ))
  new=$("$shape" "$target")
  check_ne "$new" "$old" "$name: the new output differs from the old one"
  # KILLS runs at least; more (up to three times as many) while fewer than a quarter of them
  # were killed mid-run, since a fast writer often finishes before the kill on a busy machine.
  i=0
  while [ "$i" -lt "$KILLS" ] || { [ $((killed * 4)) -lt "$KILLS" ] && [ "$i" -lt $((KILLS * 3)) ]; }; do
    i=$((i + 1))
    cp "$WORK/$name.old" "$target"
    "$@" >/dev/null 2>&1 &
    pid=$!
    delay=$(( RANDOM * ms / 32768 ))
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    got=$("$shape" "$target")
    if [ "$rc" -eq 137 ]; then killed=$((killed + 1)); else finished=$((finished + 1)); fi
    if [ "$got" == "$old" ]; then kept_old=$((kept_old + 1))
    elif [ "$got" != "$new" ]; then torn=$((torn + 1)); cp "$target" "$WORK/$name.torn.$i"; fi
    rm -f "$(dirname "$target")/.$(basename "$target").tmp."*
  done
  echo "kill points: $name: $killed of $i runs killed mid-run (run time ${ms} ms); $kept_old left the old file, $((i - kept_old - torn)) the new one, $torn torn"
  check_eq "$torn" 0 "$name: no torn file after $i kills"
  check_eq "$(( killed * 4 >= KILLS ))" 1 "$name: at least a quarter of the kills landed mid-run ($killed)"
}

# ---- the lock: a registry, a git repository, Megatron-LM's uv.lock
proj_make proj || skip "the project to lock could not be made (registry, umoci, skopeo)"
proj_manifest proj '{cuda: "13.2"}'
(cd proj && "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" >/dev/null 2>&1) || { fail "first lock" "envlock lock failed"; finish; }
proj_manifest proj '{cuda: "13.3"}'
crash_loop lock proj/envlock.lock.json digest_of \
  "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -f proj/envlock.yaml -o proj/envlock.lock.json

# ---- a verification report (offline mode over the verifier's image fixture)
bash "$REPO/tests/data/verify/make_rootfs.sh" root
"$ENVLOCK_VERIFY" --root root --check packages --format json -o report.json >/dev/null 2>&1
crash_loop report report.json report_body "$ENVLOCK_VERIFY" --root root --deep --format json -o report.json

# ---- a .sqsh from an OCI layout
img_layout layout sample >/dev/null || { fail "make sample layout" "python3"; finish; }
mkdir -p sq
"$ENVLOCK" squashfs --oci-layout layout --image sample -o sq/app.sqsh --source-date-epoch 1 >/dev/null 2>&1
crash_loop sqsh sq/app.sqsh digest_of \
  "$ENVLOCK" squashfs --oci-layout layout --image sample -o sq/app.sqsh --source-date-epoch 2

# ---- the build context tar: written once from lock A (Megatron-LM at v1), then rewritten from
# lock B (at v2); every survivor must be A's tar or B's, byte for byte.
# The Dockerfile pins uv by its sha256, so the context needs one in the lock.
UV_PIN="s/uv: {version: 0.7.2}/uv: {version: 0.7.2, sha256: $(printf uv | digest_of /dev/stdin)}/"
sed "$UV_PIN; s/ref: v2/ref: v1/" proj/envlock.yaml >proj/ctx-a.yaml
sed "$UV_PIN; s/ref: v1/ref: v2/" proj/envlock.yaml >proj/ctx-b.yaml
for v in a b; do
  "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -f "proj/ctx-$v.yaml" -o "proj/ctx-$v.lock.json" \
    >/dev/null 2>&1 || { fail "lock $v for the context" "envlock lock failed"; finish; }
done
run_cmd c "$ENVLOCK" context --lock proj/ctx-a.lock.json -o ctx.tar
[ "$c_rc" -eq 0 ] || { fail "context: the tar from lock A" "$c_err"; finish; }
check_eq "${c_out%%  *}" "$(digest_of ctx.tar)" "context: prints the sha256 of the tar from lock A"
crash_loop context ctx.tar digest_of "$ENVLOCK" context --lock proj/ctx-b.lock.json -o ctx.tar
finish
