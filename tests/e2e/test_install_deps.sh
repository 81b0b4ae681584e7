#!/usr/bin/env bash
# scripts/install-deps.sh waits for apt's and dpkg's locks instead of failing at once. The lock
# holder is real: a process holding a POSIX (fcntl) write lock on /var/lib/dpkg/lock-frontend, the
# lock apt and dpkg themselves take (apt-get check fails against it, as against unattended
# upgrades). Each hold lasts a few seconds, so other apt users on the machine are barely delayed.
. "$REPO/tests/e2e/lib.sh"
need_tools apt-get stat awk /usr/bin/python3 flock
LOCK=/var/lib/dpkg/lock-frontend
[ -w "$LOCK" ] || { fail "lock file" "$LOCK is not writable (run the suite as root)"; finish; }
. "$REPO/scripts/lib/apt_lock.sh"

# hold SECONDS: holds a POSIX write lock on $LOCK in the background (HOLDER is its PID) and
# returns once /proc/locks shows it.
hold() {
  /usr/bin/python3 -c 'import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.lockf(fd, fcntl.LOCK_EX)
time.sleep(float(sys.argv[2]))' "$LOCK" "$1" &
  HOLDER=$!
  E2E_PIDS+=("$HOLDER")
  wait_until 50 grep -q "POSIX  ADVISORY  WRITE $HOLDER " /proc/locks
}

# --- nothing held: no wait, no output
run_cmd f apt_wait_for_locks 5
check_eq "$f_rc:$f_err" "0:" "free locks: returns at once, silently"

# --- the holder is a real conflict for apt
hold 2
run_cmd a apt-get check -qq
check_eq "$a_rc" 100 "apt-get check fails while the lock is held"
check_contains "$a_err" "E: Could not get lock $LOCK. It is held by process $HOLDER (python3)" \
  "apt names the same holder"
wait "$HOLDER"

# --- held for 3 s: waits, says for what, then returns
hold 3
start=$(date +%s)
run_cmd w apt_wait_for_locks 30
waited=$(( $(date +%s) - start ))
check_eq "$w_rc" 0 "waits until the lock is free, then returns 0"
check_eq "$w_err" "install-deps: waiting for $LOCK, held by process $HOLDER (python3), for up to 30 s (ENVLOCK_APT_LOCK_WAIT)" \
  "says which lock and which process it waits for"
[ "$waited" -ge 1 ] && ok "it waited (${waited} s)" || fail "it waited" "returned after ${waited} s"
check_eq "$(grep -c "WRITE $HOLDER " /proc/locks)" 0 "the holder is gone when it returns"

# --- still held after the limit: exit 3, naming the lock, the holder and what to do
hold 4
run_cmd t apt_wait_for_locks 1
check_eq "$t_rc" 3 "still held after the limit: 3"
check_eq "$t_err" "install-deps: waiting for $LOCK, held by process $HOLDER (python3), for up to 1 s (ENVLOCK_APT_LOCK_WAIT)
install-deps: $LOCK is still held by process $HOLDER (python3) after 1 s; let it finish (unattended upgrades at boot take a few minutes) and run this script again, or raise ENVLOCK_APT_LOCK_WAIT" \
  "the timeout message"
kill "$HOLDER" 2>/dev/null; wait "$HOLDER" 2>/dev/null

# --- a BSD flock(1) lock does not stop apt, so it does not stop the wait either
flock "$LOCK" sleep 2 &
FLOCKER=$!
E2E_PIDS+=("$FLOCKER")
wait_until 50 grep -q "FLOCK  ADVISORY  WRITE $FLOCKER " /proc/locks
run_cmd a apt-get check -qq
check_eq "$a_rc" 0 "apt-get check ignores a flock(1) holder"
run_cmd g apt_wait_for_locks 5
check_eq "$g_rc:$g_err" "0:" "so does the wait"
wait "$FLOCKER"

# --- the script itself: all packages present, nothing to wait for
run_cmd s bash "$REPO/scripts/install-deps.sh"
check_eq "$s_rc" 0 "install-deps.sh exits 0"
check_contains "$s_out" "install-deps: all " "install-deps.sh finds every package"
finish
