// The value format of the lock's `expect.host` entries (docs/manual/node.md):
//   "Ubuntu 24.04"       exact text
//   "580.*"              a glob: '*' matches any run of characters, '?' one character
//   ">=6.8,<6.9"         comparisons (>=, <=, >, <, ==, !=) that must all hold, on the numeric
//                        dot-separated prefix of the value ("6.8.0-45-generic" -> 6.8.0)
//   ["580.65.06", "580.82.*"]   any of several such entries
//   8                    a number: the value's exact text
#pragma once

#include "lock/lock.hpp"
#include "util/result.hpp"

#include <string>
#include <string_view>

namespace envlock::node {

// Whether `value` meets `spec` (one string entry); an input error for a malformed comparison
// ("'>=x': 'x' is not a version").
Result<bool> matches_spec(std::string_view value, std::string_view spec);

// Whether `value` meets an expectation: any of its entries (a number by its exact text); an
// input error for a malformed comparison.
Result<bool> matches_expectation(std::string_view value, const lock::HostExpectation& expectation);

// The expectation as one line for reports: its entries joined by " or ".
std::string expectation_text(const lock::HostExpectation& expectation);

} // namespace envlock::node
