# What a libFuzzer run reached, read from its output with -print_final_stats=1 (scripts/fuzz.sh):
#   Done 123456 runs in 8 second(s)
#   stat::number_of_executed_units: 123456
# Sourced by scripts/fuzz.sh and tested by tests/e2e/test_fuzz_stats.sh.

# fuzz_stats LOG: prints "EXECUTIONS SECONDS", each "?" when the log does not say (a run that
# died before its final stats).
fuzz_stats() {
  local execs secs
  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9][0-9]*\)$/\1/p' "$1" | tail -1)
  secs=$(sed -n 's/^Done [0-9][0-9]* runs in \([0-9][0-9]*\) second.*/\1/p' "$1" | tail -1)
  echo "${execs:-?} ${secs:-?}"
}

# fuzz_enough EXECUTIONS MINIMUM: true when EXECUTIONS is a number of at least MINIMUM. A target
# that runs only a handful of inputs in its time explores nothing, and must not count as clean.
fuzz_enough() {
  [[ $1 =~ ^[0-9]+$ ]] && [ "$1" -ge "$2" ]
}
