#!/usr/bin/env bash
# Runs the end-to-end suites (tests/e2e/test_*.sh, or the ones named) one after another, each in a
# fresh folder, and prints "N passed, N failed, N skipped". Logs of failed suites are printed.
set -uo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
export REPO
export ENVLOCK=${ENVLOCK:-$REPO/build/envlock}
export ENVLOCK_VERIFY=${ENVLOCK_VERIFY:-$REPO/build/envlock-verify}
export ENVLOCK_WRITE_RECORD=${ENVLOCK_WRITE_RECORD:-$REPO/build/tests/envlock_write_record}
# envlock honours SOURCE_DATE_EPOCH; the suites set it themselves where they test that.
unset SOURCE_DATE_EPOCH
suites=("$@")
if [ ${#suites[@]} -eq 0 ]; then
  suites=("$REPO"/tests/e2e/test_*.sh)
fi
passed=0 failed=0 skipped=0
logdir=$(mktemp -d "${TMPDIR:-/tmp}/envlock-e2e-logs.XXXXXX")
for s in "${suites[@]}"; do
  s=$(realpath "$s")
  name=$(basename "$s" .sh)
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/envlock-e2e-$name.XXXXXX")
  export WORK
  start=$(date +%s)
  (cd "$WORK" && timeout 900 bash "$s") >"$logdir/$name.log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  checks=$(grep -c '^ok ' "$logdir/$name.log")
  case $rc in
    0) passed=$((passed + 1)); echo "PASS $name ($checks checks, ${secs}s)"; rm -rf "$WORK" ;;
    125) skipped=$((skipped + 1)); echo "SKIP $name: $(grep '^SKIP:' "$logdir/$name.log" | head -1)"; rm -rf "$WORK" ;;
    *) failed=$((failed + 1)); echo "FAIL $name (rc $rc, ${secs}s); log:"; sed 's/^/    /' "$logdir/$name.log" | tail -60
       echo "    (files left in $WORK)";;
  esac
done
echo "e2e: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
