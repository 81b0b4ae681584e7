// Python package versions compared the PEP 440 way: epoch, numeric release segments, then
// pre-release (a/b/rc), post-release, dev-release and local label. Numbers of any length are kept
// as their digits and compared without conversion, so nothing here throws or overflows.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::uv {

// A non-negative integer of any length: its decimal digits without leading zeros ("" is zero).
// Orders by length, then by text, which is numeric order.
struct VersionNumber {
  std::string digits;
  std::strong_ordering operator<=>(const VersionNumber& other) const;
  bool operator==(const VersionNumber&) const = default;
};

// Reads a run of ASCII digits ("007" -> "7"); nothing when `text` is empty or holds another byte.
std::optional<VersionNumber> parse_version_number(std::string_view text);

struct PyVersion {
  VersionNumber epoch;
  std::vector<VersionNumber> release;
  int pre_stage = 3; // 0 a, 1 b, 2 rc, 3 none
  VersionNumber pre_number;
  std::optional<VersionNumber> post;
  std::optional<VersionNumber> dev;
  std::vector<std::string> local; // "+ubuntu-1.2" -> {"ubuntu", "1", "2"}, lower case
};

// Parses a version such as "2.17.1+4329ff84", "1.0.4.post1", "2.13.0a0+8145d630e8", with PEP
// 440's permitted spellings ("v1.0", "1.0-1", "1.0RC1", "1.0+Ubuntu_1"); nothing when the text is
// not a PEP 440 version.
std::optional<PyVersion> parse_py_version(std::string_view text);

// The normalized form: "1!2.0rc1.post3.dev4+abc.5" (epoch left out when zero). It parses back to
// a version that compares equal.
std::string to_string(const PyVersion& version);

// Orders two parsed versions as PEP 440 does (1.0 == 1.0.0; 1.0.dev0 < 1.0a0 < 1.0 < 1.0+local <
// 1.0.post0). A strong order on the versions' PEP 440 identity, not on their spelling.
std::strong_ordering compare(const PyVersion& a, const PyVersion& b);

// Orders two version strings; nothing when either does not parse.
std::optional<std::strong_ordering> compare_versions(std::string_view a, std::string_view b);

// A strict weak order over any version texts, for sorting lists: PEP 440 versions first, by PEP
// 440 (equal ones by text), then the texts that do not parse, by text.
bool version_text_less(std::string_view a, std::string_view b);

// True when both parse and their epoch or first release segment differ (2.x -> 3.x).
bool is_major_change(std::string_view a, std::string_view b);

} // namespace envlock::uv
