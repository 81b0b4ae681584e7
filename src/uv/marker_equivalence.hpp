// PEP 508 environment markers ("python_version >= '3.12' and sys_platform != 'darwin'") compared
// by meaning, as uv compares them: uv keeps a marker as a decision diagram in which two markers
// that hold in the same environments are one value, python_version is rewritten into ranges of
// python_full_version, and a lock's markers are simplified by its requires-python
// (`RequiresPython::simplify_markers`, applied by `normalize_requirement` in uv's
// crates/uv-resolver/src/lock/mod.rs). Two markers are equivalent here when they agree in every
// environment that the requires-python range allows.
#pragma once

#include "util/result.hpp"
#include "uv/version.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::uv {

struct MarkerNode; // the parsed expression

struct Marker {
  std::shared_ptr<const MarkerNode> root; // null: no marker (always true)
  std::string text;                       // as written, trimmed
};

// One end of a Python version range; `version` empty: unbounded.
struct PythonBound {
  std::optional<PyVersion> version;
  bool inclusive = true;
};

// The bounding range of a requires-python specifier set, release-only, as uv computes it
// (`RequiresPython::range`, `release_specifiers_to_ranges` in uv-pep440): ">=3.12" and
// ">=3.12.0, !=3.11.*" are one range.
struct PythonRange {
  PythonBound lower;
  PythonBound upper;
  bool empty = false;
};

// Parses a marker; fails with "'TEXT' is not a PEP 508 marker: REASON".
Result<Marker> parse_marker(std::string_view text);

// `a and b` (either may be empty).
Marker marker_and(const Marker& a, const Marker& b);

// `a or b` (either empty: always).
Marker marker_or(const Marker& a, const Marker& b);

// `not a`; `a` empty: the marker that never holds.
Marker marker_not(const Marker& a);

// The marker that never holds.
Marker marker_never();

// The requires-python range of a specifier text; nothing when it does not parse.
std::optional<PythonRange> python_range(std::string_view specifiers);

// Two ranges are one range (bounds compared as release-only versions, trailing zeros aside).
bool same_python_range(const PythonRange& a, const PythonRange& b);

// The range in words (">=3.12, <3.14"), for messages.
std::string to_string(const PythonRange& range);

enum class Equivalence { equal, different, undecided };

// Whether `a` and `b` hold in the same environments within `python`. `undecided` when the
// markers name more combinations than envlock enumerates.
Equivalence equivalent(const Marker& a, const Marker& b, const PythonRange& python);

} // namespace envlock::uv
