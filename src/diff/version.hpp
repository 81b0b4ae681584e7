// Python package versions compared the PEP 440 way, closely enough for a diff: epoch, numeric
// release segments, then pre-release (a/b/rc), post-release, dev-release and local label.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::diff {

struct PyVersion {
  std::int64_t epoch = 0;
  std::vector<std::int64_t> release;
  int pre_stage = 3; // 0 a, 1 b, 2 rc, 3 none
  std::int64_t pre_number = 0;
  std::optional<std::int64_t> post;
  std::optional<std::int64_t> dev;
  std::vector<std::string> local; // "+4329ff84" -> {"4329ff84"}
};

// Parses a version such as "2.17.1+4329ff84", "1.0.4.post1", "2.13.0a0+8145d630e8"; nothing when
// the text is not a PEP 440 version.
std::optional<PyVersion> parse_py_version(std::string_view text);

// Orders two parsed versions as PEP 440 does.
std::strong_ordering compare(const PyVersion& a, const PyVersion& b);

// Orders two version strings; nothing when either does not parse.
std::optional<std::strong_ordering> compare_versions(std::string_view a, std::string_view b);

// True when both parse and their epoch or first release segment differ (2.x -> 3.x).
bool is_major_change(std::string_view a, std::string_view b);

} // namespace envlock::diff
