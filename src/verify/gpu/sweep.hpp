// The all-reduce bandwidth sweep's arithmetic and verdict: the sizes it runs, their labels, and
// the judgement of the bus bandwidth at the largest size against the lock's threshold.
#pragma once

#include "lock/lock.hpp"
#include "verify/check.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace envlock::verify {

// "1MiB", "256MiB", "1GiB", "512KiB": a power-of-two byte count as the figures name it.
std::string size_label(std::uint64_t bytes);

// The sweep's sizes: min, 4 min, 16 min, ... up to max (max always included).
std::vector<std::uint64_t> sweep_sizes(std::uint64_t min, std::uint64_t max);

// Judges the bus bandwidth at the sweep's largest size against the lock's threshold for `model`;
// fills outcome, expected, found and reason of `check`. One rank: skipped, "one GPU: no
// communication".
void judge_busbw(const lock::Expect& expect, const std::string& model, int ranks,
                 std::uint64_t bytes, double busbw, CheckResult& check);

} // namespace envlock::verify
