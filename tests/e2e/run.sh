#!/usr/bin/env bash
# Runs the end-to-end suites (tests/e2e/test_*.sh, or the ones named), each in a fresh folder,
# ENVLOCK_E2E_JOBS at a time (default 2: the suites start their own services on free ports and
# spend much of their time waiting on them). Prints a line per suite as it ends, the logs of failed
# suites, the suites by time (slowest first), then "e2e: N passed, N failed, N skipped".
set -uo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
export REPO
export ENVLOCK=${ENVLOCK:-$REPO/build/envlock}
export ENVLOCK_VERIFY=${ENVLOCK_VERIFY:-$REPO/build/envlock-verify}
export ENVLOCK_WRITE_RECORD=${ENVLOCK_WRITE_RECORD:-$REPO/build/tests/envlock_write_record}
# envlock honours SOURCE_DATE_EPOCH; the suites set it themselves where they test that.
unset SOURCE_DATE_EPOCH
jobs=${ENVLOCK_E2E_JOBS:-2}
suites=("$@")
if [ ${#suites[@]} -eq 0 ]; then
  suites=("$REPO"/tests/e2e/test_*.sh)
fi
logdir=$(mktemp -d "${TMPDIR:-/tmp}/envlock-e2e-logs.XXXXXX")

# run_suite PATH: runs one suite; writes its log, and "RC SECONDS WORKDIR" to NAME.rc.
run_suite() {
  local s name start rc
  s=$(realpath "$1")
  name=$(basename "$s" .sh)
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/envlock-e2e-$name.XXXXXX")
  export WORK
  start=$(date +%s)
  (cd "$WORK" && timeout 900 bash "$s") >"$logdir/$name.log" 2>&1
  rc=$?
  echo "$rc $(( $(date +%s) - start )) $WORK" >"$logdir/$name.rc"
}

# report NAME: the suite's line (and its log when it failed); counts it.
passed=0 failed=0 skipped=0
report() {
  local name=$1 rc secs work checks
  read -r rc secs work <"$logdir/$name.rc"
  checks=$(grep -c '^ok ' "$logdir/$name.log")
  echo "$secs $name" >>"$logdir/times"
  case $rc in
    0) passed=$((passed + 1)); echo "PASS $name ($checks checks, ${secs}s)"; rm -rf "$work" ;;
    125) skipped=$((skipped + 1)); echo "SKIP $name: $(grep '^SKIP:' "$logdir/$name.log" | head -1)"; rm -rf "$work" ;;
    *) failed=$((failed + 1)); echo "FAIL $name (rc $rc, ${secs}s); log:"; sed 's/^/    /' "$logdir/$name.log" | tail -60
       echo "    (files left in $work)";;
  esac
}

started=$(date +%s)
declare -A pending=()
for s in "${suites[@]}"; do
  while [ ${#pending[@]} -ge "$jobs" ]; do
    wait -n -p done_pid
    report "${pending[$done_pid]}"
    unset "pending[$done_pid]"
  done
  run_suite "$s" &
  pending[$!]=$(basename "$s" .sh)
done
while [ ${#pending[@]} -gt 0 ]; do
  wait -n -p done_pid
  report "${pending[$done_pid]}"
  unset "pending[$done_pid]"
done
echo "e2e suites by time ($jobs at a time, $(( $(date +%s) - started ))s in all):"
sort -rn "$logdir/times" | awk '{printf "  %5ss %s\n", $1, $2}'
echo "e2e: $passed passed, $failed failed, $skipped skipped"
if [ "$failed" -eq 0 ]; then
  rm -rf "$logdir"
else
  echo "e2e: the logs are in $logdir"
fi
[ "$failed" -eq 0 ]
