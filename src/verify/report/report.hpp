// A verification report in its three forms: JSON (formats/report.hpp owns the type and its
// JSON, envlock.report/v1), JUnit XML and the terminal table.
#pragma once

#include "formats/report.hpp"
#include "util/result.hpp"
#include "verify/check.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace envlock::verify {

using formats::Report;
using formats::RunFacts;
using formats::summarize;
using formats::Summary;

// Writes every byte of the report's text that is not part of a well-formed UTF-8 character as
// "\xNN", so that a name or file read from an image never stops the report from being written.
void escape_invalid_utf8(Report& report);

// The report as JSON (docs/formats/report.md).
inline nlohmann::json report_to_json(const Report& report) {
  return formats::to_json(report);
}

// The report as JUnit XML: one testsuite "envlock-verify", one testcase per check, with
// <failure> or <skipped> elements; no times, so the bytes are deterministic.
std::string report_to_junit(const Report& report);

enum class Colour { off, on };

// The terminal table: one line per check (outcome, id, expected, found, reason), then
// "N passed, N failed, N skipped".
std::string report_to_table(const Report& report, Colour colour);

// Writes the JSON report (canonical JSON) atomically; an environment error names the file.
inline Status write_json_report(const std::filesystem::path& path, const Report& report) {
  return formats::write_report(path, report);
}
// Writes the JUnit XML report atomically.
Status write_junit_report(const std::filesystem::path& path, const Report& report);

} // namespace envlock::verify
