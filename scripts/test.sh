#!/usr/bin/env bash
# The whole test run (README command 2, and what CI runs): installs the packages, builds with
# warnings as errors, checks formatting and lint, runs the unit tests, the unit tests again under
# ASan+UBSan, and the end-to-end suites against real services on loopback.
# The last line is "N passed, N failed, N skipped" over unit test cases and e2e suites.
# Everything the run writes for itself goes to one temporary folder (TMPDIR for every step: the
# logs, the suites' folders, what the tools leave behind), removed at the end unless something
# failed; build-fuzz/ (about 4 GB) is removed too unless ENVLOCK_KEEP_BUILD=1 (ccache keeps its
# rebuild short).
set -uo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/envlock-test.XXXXXX")
chmod 1777 "$run_tmp" # as /tmp: the suites run commands as other users, who make files there too
export TMPDIR=$run_tmp
step() { printf '\n== %s (%s)\n' "$1" "$(date +%T)"; }
fatal() { echo "test.sh: $1 (logs in $run_tmp)" >&2; echo "0 passed, 1 failed"; exit 1; }

step "packages"
bash scripts/install-deps.sh || fatal "installing packages failed"

step "build (warnings as errors)"
bash scripts/build.sh || fatal "build failed"

step "format (clang-format)"
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.cu')
if [ ${#sources[@]} -gt 0 ]; then
  clang-format --dry-run -Werror "${sources[@]}" || fatal "clang-format: files differ from .clang-format"
fi

step "lint (clang-tidy, then the unity-batch check, in the background from here on)"
lint_log=$(mktemp)
(bash scripts/lint.sh && bash scripts/unity-check.sh) >"$lint_log" 2>&1 &
lint_pid=$!

step "unit tests"
unit_log=$(mktemp)
(cd build && ./tests/envlock_unit 2>&1) | tee "$unit_log" | tail -4
unit_rc=${PIPESTATUS[0]}
unit_pass=$(sed -n 's/.*test cases: *[0-9]* | *\([0-9]*\) passed.*/\1/p' "$unit_log" | tail -1)
unit_fail=$(sed -n 's/.*test cases:.*| *\([0-9]*\) failed.*/\1/p' "$unit_log" | tail -1)
unit_skip=$(sed -n 's/.*test cases:.*| *\([0-9]*\) skipped.*/\1/p' "$unit_log" | tail -1)
[ "$unit_rc" -eq 0 ] || grep -B2 -A8 'ERROR' "$unit_log" | head -80

step "unit tests under ASan+UBSan (clang), and the fuzz targets"
# One clang build serves both: every object is instrumented for ASan+UBSan and for libFuzzer's
# coverage, the unit tests link doctest's main, each tests/fuzz target libFuzzer's.
CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DENVLOCK_SANITIZE=ON -DENVLOCK_FUZZ=ON \
  -DENVLOCK_WERROR=ON -DENVLOCK_KERNELS=OFF >/dev/null || fatal "sanitizer configure failed"
mapfile -t fuzz_targets < <(ls tests/fuzz/fuzz_*.cpp | xargs -n1 basename | sed 's/\.cpp$//')
cmake --build build-fuzz -j"$(nproc)" --target envlock_unit "${fuzz_targets[@]}" ||
  fatal "sanitizer build failed"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ./build-fuzz/tests/envlock_unit 2>&1 | tail -3
asan_rc=${PIPESTATUS[0]}
[ "$asan_rc" -eq 0 ] && asan_pass=1 asan_fail=0 || asan_pass=0 asan_fail=1
bash scripts/fuzz.sh --build build-fuzz --seconds "${ENVLOCK_FUZZ_SECONDS:-8}"
fuzz_rc=$?
[ "$fuzz_rc" -eq 0 ] && fuzz_pass=1 fuzz_fail=0 || fuzz_pass=0 fuzz_fail=1

step "end-to-end suites"
e2e_log=$(mktemp)
bash tests/e2e/run.sh 2>&1 | tee "$e2e_log"
e2e_pass=$(sed -n 's/^e2e: \([0-9]*\) passed.*/\1/p' "$e2e_log")
e2e_fail=$(sed -n 's/^e2e: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$e2e_log")
e2e_skip=$(sed -n 's/^e2e: .* \([0-9]*\) skipped/\1/p' "$e2e_log")

step "lint result"
wait "$lint_pid"
lint_rc=$?
cat "$lint_log"
[ "$lint_rc" -eq 0 ] && lint_pass=1 lint_fail=0 || lint_pass=0 lint_fail=1

step "times"
sed -n '/^e2e suites by time/,/^e2e:/p' "$e2e_log" | sed '$d'

pass=$(( ${unit_pass:-0} + asan_pass + fuzz_pass + lint_pass + ${e2e_pass:-0} ))
failn=$(( ${unit_fail:-1} + asan_fail + fuzz_fail + lint_fail + ${e2e_fail:-1} ))
skipn=$(( ${unit_skip:-0} + ${e2e_skip:-0} ))
[ "$unit_rc" -eq 0 ] || [ "$failn" -gt 0 ] || failn=1
echo
echo "summary: unit cases ${unit_pass:-0}/${unit_fail:-?} (pass/fail), sanitizer run $([ $asan_rc -eq 0 ] && echo clean || echo FAILED), fuzzing $([ $fuzz_rc -eq 0 ] && echo clean || echo FAILED), clang-tidy $([ $lint_rc -eq 0 ] && echo clean || echo FAILED), e2e suites ${e2e_pass:-0}/${e2e_fail:-?}/${e2e_skip:-0} (pass/fail/skip)"
[ "${ENVLOCK_KEEP_BUILD:-0}" = 1 ] || rm -rf build-fuzz
if [ "$failn" -eq 0 ]; then
  rm -rf "$run_tmp"
else
  echo "test.sh: logs and the failed suites' folders are in $run_tmp"
fi
echo "$pass passed, $failn failed, $skipn skipped"
[ "$failn" -eq 0 ]
