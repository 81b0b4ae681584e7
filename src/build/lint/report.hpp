// The three forms of `envlock lint`'s findings over one or more files: text for people
// ("FILE:LINE: error: MESSAGE", then "FILE: N errors, M warnings"), JSON (envlock.lint/v1,
// docs/manual/lint.md) and SARIF 2.1.0 for CI annotations (one run, the rules in
// tool.driver.rules, each result with ruleId, level, message.text and its file, line and column).
// Pure functions of the findings: the same files give the same bytes.
#pragma once

#include "build/lint/lint.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::build {

// One linted file: its name as given ("-" for standard input) and its findings.
struct LintedFile {
  std::string name;
  std::vector<Finding> findings;
};

// How many findings of `files` are errors.
std::size_t lint_error_count(const std::vector<LintedFile>& files);

// Each file's findings, one per line, and its summary line.
std::string lint_report_text(const std::vector<LintedFile>& files);

// {"schema": envlock.lint/v1, "files": [...], "errors": N, "warnings": M}.
nlohmann::json lint_report_json(const std::vector<LintedFile>& files);

// A SARIF 2.1.0 log with one run of the tool "envlock" at `tool_version`.
nlohmann::json lint_report_sarif(const std::vector<LintedFile>& files,
                                 const std::string& tool_version);

} // namespace envlock::build
