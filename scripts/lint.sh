#!/usr/bin/env bash
# Runs clang-tidy (profile: .clang-tidy) over envlock's sources. It reads them as the build
# compiles them, in unity batches (build-lint/: batches of 16, no precompiled header, no kernels;
# configuring it compiles nothing), so the common headers are parsed once per batch rather than
# once per file; a source outside every batch is read alone. HeaderFilterRegex ('src/.*') reports
# what a batch's files hold; what is said of the batch file itself (its #include of .cpp files) is
# left out.
# The clang static analyzer checks (clang-analyzer-*) take about a third of the time; CI leaves
# them out to stay within its time budget, `scripts/lint.sh --analyzer` runs them too.
#   scripts/lint.sh [--analyzer]
set -uo pipefail
checks=(--checks=-clang-analyzer-*)
[ "${1:-}" = --analyzer ] && checks=()
cd "$(dirname "$0")/.."
cmake -S . -B build-lint -DCMAKE_BUILD_TYPE=RelWithDebInfo -DENVLOCK_UNITY=ON -DENVLOCK_PCH=OFF \
  -DENVLOCK_KERNELS=OFF >/dev/null || { echo "lint.sh: cmake could not configure build-lint" >&2; exit 2; }
# What to read: the unity files of the targets built from src/, and the sources of src/ in none.
mapfile -t inputs < <(python3 - "$(pwd)" <<'PY'
import json, os, re, subprocess, sys
repo = sys.argv[1]
entries = json.load(open(os.path.join(repo, "build-lint", "compile_commands.json")))
sources = set(subprocess.run(["git", "ls-files", "src/*.cpp"], cwd=repo, capture_output=True,
                             text=True, check=True).stdout.split())
batched, out = set(), []
for e in entries:
    f = e["file"]
    if "/Unity/unity_" in f and "/tests/" not in os.path.relpath(f, os.path.join(repo, "build-lint")):
        text = open(f).read()
        included = [os.path.relpath(p, repo) for p in re.findall(r'#include "([^"]+)"', text)]
        if any(p in sources for p in included):
            batched.update(included)
            out.append(f)
out += sorted(s for s in sources if s not in batched)
print("\n".join(out))
PY
)
[ ${#inputs[@]} -gt 0 ] || exit 0
out=$(mktemp)
printf '%s\n' "${inputs[@]}" | xargs -P "$(nproc)" -n 1 clang-tidy -p build-lint --quiet "${checks[@]}" 2>/dev/null \
  | grep -E 'warning:|error:' | grep -v 'warnings generated' | grep -v '^[^:]*/build-lint/' \
  | sort -u > "$out" || true
if [ -s "$out" ]; then
  cat "$out"; rm -f "$out"; exit 1
fi
rm -f "$out"
echo "clang-tidy: $(git ls-files 'src/*.cpp' | wc -l) files clean (${#inputs[@]} batches and files)"
