// PEP 508 requirements as pyproject.toml lists them ("nvidia-modelopt[torch]>=0.44; sys_platform
// != 'darwin'", "pkg @ https://host.invalid/pkg.whl"): the name (normalized as PEP 503 does),
// the extras, the version specifiers or the direct URL, and the marker as written.
#pragma once

#include "util/result.hpp"
#include "uv/specifier.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace envlock::uv {

struct Requirement {
  std::string name;                  // normalized: lower case, runs of "-_." as one "-"
  std::vector<std::string> extras;   // normalized, sorted, without repeats
  std::vector<Specifier> specifiers; // empty for a direct URL or "any version"
  std::string url;                   // "name @ URL"; empty otherwise
  std::string marker;                // the text after ';', trimmed; empty when none
};

// "Flash_MLA" -> "flash-mla": the name by which uv and pip compare packages (PEP 503).
std::string normalize_name(std::string_view name);

// Parses one requirement. Fails with "'TEXT' is not a PEP 508 requirement: REASON".
Result<Requirement> parse_requirement(std::string_view text);

} // namespace envlock::uv
