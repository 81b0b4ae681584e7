// PEP 508 environment markers as uv.lock writes them on its dependency edges
// ("python_full_version < '3.13' and sys_platform == 'linux'", "extra == 'mlm'"), judged for one
// target: the image's platform and Python. Versions are compared as PEP 440 versions where the
// variable holds one (python_version, python_full_version, implementation_version), as text
// otherwise; `in` and `not in` look for a substring.
#pragma once

#include "util/result.hpp"

#include <map>
#include <set>
#include <string>
#include <string_view>

namespace envlock::uv {

struct MarkerEnvironment {
  std::map<std::string, std::string> values; // sys_platform -> "linux", python_version -> "3.12"
  std::set<std::string> extras;              // the values for which `extra == '...'` holds
};

// The environment of a Linux image: `platform` is "linux/amd64" or "linux/arm64[/v8]" (the
// machine becomes x86_64 or aarch64), `python` is "3.12" or "3.12.3" (python_full_version is
// "3.12.0" when only the minor release is known), CPython.
MarkerEnvironment linux_environment(std::string_view platform, std::string_view python);

// Whether `marker` holds in `environment`; an empty marker holds. Fails with "'MARKER' is not
// a PEP 508 marker: REASON" (an unknown variable, an unclosed quote or parenthesis).
Result<bool> evaluate_marker(std::string_view marker, const MarkerEnvironment& environment);

} // namespace envlock::uv
