// `envlock lint`: what in a Dockerfile breaks reproducibility, each finding with its line. The
// rules and their exact messages are listed in docs/manual/lint.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace envlock::build {

enum class Severity { error, warning };

struct Finding {
  int line = 0;
  Severity severity = Severity::error;
  std::string message;
  bool operator==(const Finding&) const = default;
};

// Every finding of the Dockerfile `text`, by line (and rule order within a line).
std::vector<Finding> lint_dockerfile(std::string_view text);

// "FILE:LINE: error: MESSAGE" (or "warning:").
std::string format_finding(std::string_view file, const Finding& finding);

} // namespace envlock::build
