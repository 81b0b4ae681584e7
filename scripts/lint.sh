#!/usr/bin/env bash
# Runs clang-tidy (profile: .clang-tidy) over envlock's sources, with the compile commands of a
# file-by-file configuration in build-lint/ (the normal build compiles in unity batches, whose
# commands name no single source file); configuring it compiles nothing.
# The clang static analyzer checks (clang-analyzer-*) take about a third of the time; CI leaves
# them out to stay within its time budget, `scripts/lint.sh --analyzer` runs them too.
#   scripts/lint.sh [--analyzer]
set -uo pipefail
checks=(--checks=-clang-analyzer-*)
[ "${1:-}" = --analyzer ] && checks=()
cd "$(dirname "$0")/.."
cmake -S . -B build-lint -DCMAKE_BUILD_TYPE=RelWithDebInfo -DENVLOCK_UNITY=OFF -DENVLOCK_PCH=OFF \
  -DENVLOCK_KERNELS=OFF >/dev/null || { echo "lint.sh: cmake could not configure build-lint" >&2; exit 2; }
mapfile -t files < <(git ls-files 'src/*.cpp')
[ ${#files[@]} -gt 0 ] || exit 0
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p build-lint --quiet "${checks[@]}" 2>/dev/null \
  | grep -E 'warning:|error:' | grep -v 'warnings generated' > /tmp/envlock-tidy.$$ || true
if [ -s /tmp/envlock-tidy.$$ ]; then
  cat /tmp/envlock-tidy.$$; rm -f /tmp/envlock-tidy.$$; exit 1
fi
rm -f /tmp/envlock-tidy.$$
echo "clang-tidy: ${#files[@]} files clean"
