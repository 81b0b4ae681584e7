# Waiting for apt's and dpkg's locks (sourced by scripts/install-deps.sh). On a fresh machine,
# unattended upgrades often hold them at boot; apt-get would fail at once with "Could not get lock".
# apt and dpkg lock with fcntl(2) (POSIX record locks), so the holders are read from /proc/locks.

# The locks apt-get update and apt-get install take.
APT_LOCKS=(/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock
  /var/cache/apt/archives/lock)

# apt_lock_holder: prints "LOCK PID NAME" for the first of APT_LOCKS another process holds (PID 0
# and NAME "?" when the holder is outside this PID namespace); prints nothing when all are free.
apt_lock_holder() {
  local lock ino pid name
  for lock in "${APT_LOCKS[@]}"; do
    [ -e "$lock" ] || continue
    ino=$(stat -c %i "$lock") || continue
    # "1: POSIX  ADVISORY  WRITE 1234 fe:00:408225 0 EOF"; waiters have "->" after the number.
    pid=$(awk -v ino="$ino" '$2 == "POSIX" { n = split($6, f, ":"); if (f[n] == ino) { print $5; exit } }' /proc/locks)
    [ -n "$pid" ] || continue
    name=$(cat "/proc/$pid/comm" 2>/dev/null) || name="?"
    echo "$lock $pid $name"
    return 0
  done
}

# apt_wait_for_locks SECONDS: returns 0 as soon as no other process holds one of APT_LOCKS, saying
# once what it waits for; returns 3 with a message naming the lock and its holder when they are
# still held after SECONDS.
apt_wait_for_locks() {
  local limit=$1 start now held said=""
  start=$(date +%s)
  while held=$(apt_lock_holder) && [ -n "$held" ]; do
    set -- $held
    if [ "$said" != "$held" ]; then
      echo "install-deps: waiting for $1, held by process $2 ($3), for up to ${limit} s" \
        "(ENVLOCK_APT_LOCK_WAIT)" >&2
      said=$held
    fi
    now=$(date +%s)
    if [ $((now - start)) -ge "$limit" ]; then
      echo "install-deps: $1 is still held by process $2 ($3) after ${limit} s; let it finish" \
        "(unattended upgrades at boot take a few minutes) and run this script again, or raise" \
        "ENVLOCK_APT_LOCK_WAIT" >&2
      return 3
    fi
    sleep 1
  done
  return 0
}
