# Interruption: envlock sent SIGINT, SIGTERM or SIGHUP in the middle of a long step (a layer
# download, mksquashfs, a build's RUN, hashing a big file) removes what it made in TMPDIR and
# beside the output, leaves no registry password on disk, keeps the build log, and dies of the
# signal (exit status 128 + N).
# Each command is started in the background with its own TMPDIR; the signal is sent once the step
# is seen under way (its temporary folder, a program's marker, the file it has open), never after
# a delay.
. "$REPO/tests/e2e/lib.sh"
reg_need
need_tools python3 curl mksquashfs buildah git tar sha256sum
# Job control: a background job of a script without it ignores SIGINT (and so would envlock).
set -m

# interrupt NAME SIGNAL READY CMD...: runs CMD in the background with TMPDIR=$WORK/tmp-NAME
# (stdout and stderr in $WORK/NAME.out, .err), waits until the shell code READY succeeds (it sees
# that folder as $T, CMD's pid as $P), sends SIGNAL and waits; sets RC to CMD's exit status.
interrupt() {
  local name=$1 signal=$2 ready=$3
  shift 3
  mkdir -p "$WORK/tmp-$name"
  TMPDIR="$WORK/tmp-$name" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" &
  PID=$!
  if T="$WORK/tmp-$name" P=$PID wait_until 1200 bash -c "$ready"; then
    kill -s "$signal" "$PID"
  else
    fail "$name: under way before the signal" "$(tail -3 "$WORK/$name.err")"
    kill -9 "$PID"
  fi
  wait "$PID"
  RC=$?
}
# left_in DIR: what is in DIR, one line ("" when empty).
left_in() { ls -A "$1" | tr '\n' ' '; }
code() { echo $((128 + $(kill -l "$1"))); }

# ---- squashfs from a registry whose layer download stalls: the blobs folder is in TMPDIR
reg_start_faults || skip "the fault registry did not start"
D_FAULT=$(curl -s "http://$REG_FAULT/v2/ok/app/manifests/v1" | sha256sum | cut -d' ' -f1)
mkdir -p sq1
echo "the previous image" >sq1/app.sqsh
# The fault registry logs each request as it comes: the config blob's, then the layer's.
interrupt sq-download INT 'ls -d "$T"/envlock-blobs.* && [ "$(grep -c "layer-stall-0/app/blobs" "$WORK/reg/fault.log")" -ge 2 ]' \
  "$ENVLOCK" squashfs --insecure-registry "$REG_FAULT" --registry-timeout 60 \
  --image "$REG_FAULT/layer-stall-0/app@sha256:$D_FAULT" -o sq1/app.sqsh --source-date-epoch 0
check_eq "$RC" "$(code INT)" "squashfs, SIGINT during a layer download: exit 130"
check_contains "$(cat sq-download.err)" "envlock: error: interrupted by SIGINT" \
  "squashfs, SIGINT during a layer download: message"
check_eq "$(left_in tmp-sq-download)" "" "squashfs, SIGINT during a layer download: nothing left in TMPDIR"
check_eq "$(left_in sq1)" "app.sqsh " "squashfs, SIGINT during a layer download: nothing beside -o"
check_eq "$(cat sq1/app.sqsh)" "the previous image" "squashfs, SIGINT during a layer download: the old .sqsh is kept"

# ---- squashfs while mksquashfs runs: a mksquashfs that starts its output and then waits
img_layout layout sample >/dev/null || { fail "make sample layout" "python3"; finish; }
mkdir -p fakebin sq2
REAL_MKSQUASHFS=$(command -v mksquashfs)
cat >fakebin/mksquashfs <<SH
#!/bin/sh
case "\$1" in -version) exec "$REAL_MKSQUASHFS" "\$@" ;; esac
echo partial >"\$2"
echo \$\$ >"$WORK/mksquashfs.running"
exec sleep 600
SH
chmod +x fakebin/mksquashfs
echo "the previous image" >sq2/app.sqsh
interrupt sq-mksquashfs TERM '[ -e "$WORK/mksquashfs.running" ]' \
  env PATH="$WORK/fakebin:$PATH" "$ENVLOCK" squashfs --oci-layout layout --image sample \
  -o sq2/app.sqsh --source-date-epoch 0
check_eq "$RC" "$(code TERM)" "squashfs, SIGTERM while mksquashfs runs: exit 143"
check_contains "$(cat sq-mksquashfs.err)" "envlock: error: interrupted by SIGTERM" \
  "squashfs, SIGTERM while mksquashfs runs: message"
check_eq "$(left_in tmp-sq-mksquashfs)" "" "squashfs, SIGTERM while mksquashfs runs: the rootfs is removed from TMPDIR"
check_eq "$(left_in sq2)" "app.sqsh " "squashfs, SIGTERM while mksquashfs runs: no .app.sqsh.envlock-* folder beside -o"
check_eq "$(cat sq2/app.sqsh)" "the previous image" "squashfs, SIGTERM while mksquashfs runs: the old .sqsh is kept"
kill -0 "$(cat mksquashfs.running)" 2>/dev/null && fail "squashfs, SIGTERM while mksquashfs runs: mksquashfs ended" "still running" ||
  ok "squashfs, SIGTERM while mksquashfs runs: mksquashfs ended"

# ---- build: SIGHUP during a RUN that waits; the registry password is in the auth file meanwhile
reg_start_plain || skip "docker-registry did not start"
reg_make_image base amd64 >/dev/null && reg_push base "$REG_PLAIN/demo/base:v1" ||
  skip "could not build and push the base image with umoci and skopeo"
mkdir -p proj
cp "$REPO"/examples/demo/{envlock.yaml,pyproject.toml,uv.lock} proj/
sed -i "s/127\.0\.0\.1:5000/$REG_PLAIN/g; s/ref: core_v0.0.1/ref: v2/" proj/envlock.yaml
git_make_repo proj/megatron-lm
(cd proj && "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" >/dev/null 2>&1) ||
  { fail "build: the lock" "envlock lock failed"; finish; }
# The RUN prints a line the step's own echo of the command does not contain, then waits.
sed 's/^RUN echo .*/RUN echo "running-$((6 * 7))" \&\& sleep 600/' "$REPO/tests/data/build/tiny.mustache" >slow.mustache
PASSWORD=interrupt-s3cret-$RANDOM
cd proj
interrupt build HUP 'grep -qx "running-42" r/.build-result.log.* 2>/dev/null' \
  env ENVLOCK_REGISTRY_USER=builder ENVLOCK_REGISTRY_PASSWORD="$PASSWORD" \
  "$ENVLOCK" build --template "$WORK/slow.mustache" --insecure-registry "$REG_PLAIN" \
  --result r/build-result.json
cd "$WORK"
check_eq "$RC" "$(code HUP)" "build, SIGHUP during a RUN: exit 129"
check_contains "$(cat build.err)" "envlock: error: interrupted by SIGHUP; the log is in $WORK/proj/r/build-result.log" \
  "build, SIGHUP during a RUN: message"
check_eq "$(left_in tmp-build)" "" "build, SIGHUP during a RUN: the build folder (auth/config.json) is removed"
check_eq "$(grep -rlF -e "$PASSWORD" -e "$(printf 'builder:%s' "$PASSWORD" | base64 -w0)" "$WORK" 2>/dev/null | wc -l)" 0 \
  "build, SIGHUP during a RUN: the password is nowhere on disk"
check_file proj/r/build-result.log "build, SIGHUP during a RUN: the log is kept"
check_contains "$(cat proj/r/build-result.log)" "running-42" "build, SIGHUP during a RUN: the log has the output so far"
check_eq "$(left_in proj/r)" "build-result.log " "build, SIGHUP during a RUN: no result, no temporary log"

# ---- lock: SIGTERM while a big training data file is hashed (a sparse one: quick to make)
proj_make lk || skip "the project to lock could not be made (registry, umoci, skopeo)"
proj_manifest lk '{cuda: "13.2"}' 'training: {data: data/big}'
mkdir -p lk/data
truncate -s 64G lk/data/big.bin
printf 'MMIDIDX\0\0' >lk/data/big.idx
echo '{"the previous": "lock"}' >lk/envlock.lock.json
interrupt lock TERM 'ls -l /proc/$P/fd | grep -q "big.bin"' \
  "$ENVLOCK" lock --insecure-registry "$REG_PLAIN" -f lk/envlock.yaml -o lk/envlock.lock.json
check_eq "$RC" "$(code TERM)" "lock, SIGTERM while hashing: exit 143"
check_contains "$(cat lock.err)" "envlock: error: interrupted by SIGTERM" "lock, SIGTERM while hashing: message"
check_eq "$(left_in tmp-lock)" "" "lock, SIGTERM while hashing: nothing left in TMPDIR"
check_eq "$(cat lk/envlock.lock.json)" '{"the previous": "lock"}' "lock, SIGTERM while hashing: the old lock is kept"
check_eq "$(ls -A lk | grep -c '\.tmp\.')" 0 "lock, SIGTERM while hashing: no temporary file beside it"

finish
