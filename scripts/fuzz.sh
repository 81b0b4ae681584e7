#!/usr/bin/env bash
# Runs the libFuzzer targets (tests/fuzz/fuzz_*.cpp) built in build-fuzz (ENVLOCK_FUZZ=ON, clang,
# ASan+UBSan). Each target first replays its regression inputs (tests/fuzz/regressions/<name>/,
# one file per crash found and fixed), then fuzzes from its checked-in corpus (tests/fuzz/corpus/
# <name>/, copied, so the tree is not written to) for a bounded time or number of runs.
#   scripts/fuzz.sh [--seconds S | --runs N] [--min-runs M] [--build DIR] [NAME...]
# Prints one line per target ("fuzz_manifest: 123456 runs in 10 s, corpus 5 -> 48 inputs, ok")
# and exits 1 when any target crashed, or, with --seconds, ran fewer than M inputs (default 1000:
# a target that slow explores nothing, "TOO FEW RUNS"); the crashing input is kept in the printed
# folder.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/fuzz_stats.sh
seconds=10 runs="" build=build-fuzz min_runs=1000
names=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --min-runs) min_runs=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
if [ ${#names[@]} -eq 0 ]; then
  for src in tests/fuzz/fuzz_*.cpp; do names+=("$(basename "$src" .cpp | sed 's/^fuzz_//')"); done
fi
limit=(-max_total_time="$seconds")
[ -n "$runs" ] && limit=(-runs="$runs")
work=$(mktemp -d "${TMPDIR:-/tmp}/envlock-fuzz.XXXXXX")
failed=0
for name in "${names[@]}"; do
  exe=$build/tests/fuzz/fuzz_$name
  [ -x "$exe" ] || { echo "fuzz_$name: not built ($exe)"; failed=1; continue; }
  regressions=tests/fuzz/regressions/$name
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    if ! "$exe" "$regressions"/* >"$work/$name.replay.log" 2>&1; then
      echo "fuzz_$name: a regression input crashes again:"; tail -30 "$work/$name.replay.log"
      failed=1; continue
    fi
  fi
  corpus=$work/$name.corpus
  mkdir -p "$corpus" "$work/$name.crashes"
  cp tests/fuzz/corpus/"$name"/* "$corpus"/
  seeds=$(ls "$corpus" | wc -l)
  # The wall-clock guard: libFuzzer's own out-of-memory report can hang while it dumps the input.
  guard=$((seconds * 3 + 60))
  [ -n "$runs" ] && guard=36000
  timeout -s KILL "$guard" "$exe" "${limit[@]}" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$work/$name.crashes/" "$corpus" >"$work/$name.log" 2>&1
  rc=$?
  read -r execs secs < <(fuzz_stats "$work/$name.log")
  if [ "$rc" -ne 0 ]; then
    echo "fuzz_$name: CRASH (exit $rc); input kept in $work/$name.crashes/"
    grep -E 'ERROR|SUMMARY|==[0-9]+==' "$work/$name.log" | head -10
    [ "$rc" -eq 137 ] && echo "  (killed after ${guard} s; the log is $work/$name.log)"
    failed=1
  elif [ -z "$runs" ] && ! fuzz_enough "$execs" "$min_runs"; then
    echo "fuzz_$name: TOO FEW RUNS: $execs runs in $secs s (at least $min_runs wanted); the log is $work/$name.log"
    failed=1
  else
    echo "fuzz_$name: $execs runs in $secs s, corpus $seeds -> $(ls "$corpus" | wc -l) inputs, ok"
    rm -rf "$corpus" "$work/$name.crashes"
  fi
done
[ "$failed" -eq 0 ] && rm -rf "$work"
exit "$failed"
