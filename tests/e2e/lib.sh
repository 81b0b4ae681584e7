# Shared helpers for the end-to-end suites (tests/e2e/test_*.sh). A suite is a bash script run by
# tests/e2e/run.sh in a fresh folder ($WORK) with these variables set:
#   ENVLOCK, ENVLOCK_VERIFY  the binaries under test
#   REPO                     the repository root
# Every check prints "ok   NAME" or "FAIL NAME: why" and the suite ends with `finish`, which exits
# 1 if any check failed. `skip "reason"` ends the suite as skipped (exit 125).
set -uo pipefail

E2E_FAILS=0
E2E_CHECKS=0
E2E_PIDS=()

e2e_cleanup() {
  local p
  for p in "${E2E_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${E2E_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
}
trap e2e_cleanup EXIT

ok() { E2E_CHECKS=$((E2E_CHECKS + 1)); echo "ok   $1"; }
fail() { E2E_CHECKS=$((E2E_CHECKS + 1)); E2E_FAILS=$((E2E_FAILS + 1)); echo "FAIL $1: $2"; }

# check_eq ACTUAL EXPECTED NAME
check_eq() { if [ "$1" == "$2" ]; then ok "$3"; else fail "$3" "got '$1', expected '$2'"; fi; }
# check_ne A B NAME
check_ne() { if [ "$1" != "$2" ]; then ok "$3"; else fail "$3" "both are '$1'"; fi; }
# check_contains HAYSTACK NEEDLE NAME
check_contains() {
  if [[ "$1" == *"$2"* ]]; then ok "$3"; else fail "$3" "'$2' not in: $(printf '%s' "$1" | head -c 2000)"; fi
}
# check_not_contains HAYSTACK NEEDLE NAME
check_not_contains() {
  if [[ "$1" != *"$2"* ]]; then ok "$3"; else fail "$3" "'$2' found in: $(printf '%s' "$1" | head -c 2000)"; fi
}
# check_file PATH NAME
check_file() { if [ -f "$1" ]; then ok "$2"; else fail "$2" "no file $1"; fi; }

# run_cmd VAR_PREFIX CMD...: runs CMD, stores stdout in ${P}_out, stderr in ${P}_err, rc in ${P}_rc.
run_cmd() {
  local prefix=$1; shift
  local out err rc
  out=$(mktemp) err=$(mktemp)
  "$@" >"$out" 2>"$err"; rc=$?
  printf -v "${prefix}_out" '%s' "$(cat "$out")"
  printf -v "${prefix}_err" '%s' "$(cat "$err")"
  printf -v "${prefix}_rc" '%s' "$rc"
  rm -f "$out" "$err"
}

skip() { echo "SKIP: $1"; exit 125; }
finish() {
  echo "checks: $E2E_CHECKS, failed: $E2E_FAILS"
  [ "$E2E_FAILS" -eq 0 ]
  exit $?
}

# need_fixture FILE: ends the suite as failed when FILE (test data of the repository) is missing:
# that is a broken checkout, never a reason to skip.
need_fixture() {
  [ -f "$1" ] && return 0
  fail "fixture" "missing $1 (it is part of the repository; the checkout is incomplete)"
  finish
}

# need_tools TOOL...: skips the suite naming what is missing.
need_tools() {
  local t missing=()
  for t in "$@"; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
  [ ${#missing[@]} -eq 0 ] || skip "missing tools: ${missing[*]} (scripts/install-deps.sh installs them)"
}

# A free TCP port on 127.0.0.1.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# wait_until TRIES CMD...: retries CMD every 0.1 s.
wait_until() {
  local n=$1; shift
  for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "timeout waiting for: $*" >&2
  return 1
}

# bg CMD...: starts CMD in the background and stops it when the suite ends.
bg() { "$@" & E2E_PIDS+=($!); }

# Containers tools keep state under /var/lib/containers unless told otherwise; keep it in $WORK.
export CONTAINERS_STORAGE_CONF="$WORK/containers-storage.conf"
export REGISTRY_AUTH_FILE="$WORK/containers-auth.json"
export XDG_RUNTIME_DIR="$WORK/xdg-run"
mkdir -p "$XDG_RUNTIME_DIR"
export HOME="$WORK/home"
mkdir -p "$HOME"
cat > "$CONTAINERS_STORAGE_CONF" <<CONF
[storage]
driver = "vfs"
runroot = "$WORK/containers/runroot"
graphroot = "$WORK/containers/storage"
CONF

for f in "$REPO"/tests/e2e/lib/*.sh; do
  [ -e "$f" ] && . "$f"
done
