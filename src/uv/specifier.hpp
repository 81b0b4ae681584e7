// PEP 440 version specifiers ("~=0.1,!=0.1.46", ">=3.12"): parsed clause by clause, written in one
// normal form for comparing two spellings, and asked whether a version satisfies them.
#pragma once

#include "util/result.hpp"
#include "uv/version.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace envlock::uv {

struct Specifier {
  std::string op;      // "==", "!=", "<=", ">=", "<", ">", "~=", "==="
  std::string version; // as written, without spaces; "3.12.*" keeps its wildcard
  bool operator==(const Specifier&) const = default;
};

// Parses a comma-separated specifier set; an empty text is the empty set (any version). Fails
// with "'TEXT' is not a version specifier" for a clause without a known operator or version.
Result<std::vector<Specifier>> parse_specifiers(std::string_view text);

// The set in one spelling: each clause as operator and normalized version, sorted, joined by
// ","; two spellings of the same set ("~=0.1, !=0.1.46" and "!=0.1.46,~=0.1") give one text.
std::string normal_form(const std::vector<Specifier>& specifiers);

// Whether `version` satisfies every clause, as PEP 440 reads them (a local label is ignored
// unless the clause names one; "==X.*" matches by prefix; "~=X.Y" is ">=X.Y, ==X.*").
bool satisfies(const PyVersion& version, const std::vector<Specifier>& specifiers);

} // namespace envlock::uv
