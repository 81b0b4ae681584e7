// `envlock lint`: what in a Dockerfile breaks reproducibility, each finding with its line, column
// and rule. The rules, their ids and their exact messages are listed in docs/manual/lint.md.
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
  std::string rule; // its id, e.g. "from-not-pinned" (lint_rule_ids())
  int column = 1;   // where the line's instruction or heredoc command starts, 1-based
  bool operator==(const Finding&) const = default;
};

// The id and one-line description of each rule, in the order docs/manual/lint.md lists them.
struct RuleInfo {
  std::string id;
  std::string description;
};
const std::vector<RuleInfo>& lint_rule_ids();

// Every finding of the Dockerfile `text`, by line (and rule order within a line).
std::vector<Finding> lint_dockerfile(std::string_view text);

// "FILE:LINE: error: MESSAGE" (or "warning:").
std::string format_finding(std::string_view file, const Finding& finding);

} // namespace envlock::build
