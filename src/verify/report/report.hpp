// A verification report: every check of one run, plus the facts that identify what was checked.
// docs/formats/report.md describes the JSON form ("envlock.report/v1"). Facts that change from
// run to run (times, the host name, paths of this machine, durations) live in `run`, so two
// reports of the same image on the same kind of node differ only there and in measured figures.
#pragma once

#include "util/result.hpp"
#include "verify/check.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::verify {

inline constexpr const char* k_report_schema = "envlock.report/v1";

struct RunFacts {
  std::string started_at; // UTC, RFC 3339, seconds
  std::string hostname;
  std::string lock_path;
  std::string root; // --root, empty when live
  double seconds = 0;
};

struct Report {
  std::string tool_version;
  std::string mode; // "live" or "offline"
  std::string lock_sha256;
  std::optional<std::string> image_digest; // the image the node ran; null when not given
  std::optional<std::string> sqsh_sha256;  // the .sqsh it came from; null when none
  std::vector<std::string> gpu_uuids;
  std::vector<CheckResult> checks;
  // What the run looked at as a whole: "environment", the Python environment it checked and how
  // it found it (probes/python_env.hpp).
  nlohmann::json details = nlohmann::json::object();
  // Lines shown above the table: the Python environment, then any warning ("warning: ...").
  std::vector<std::string> notes;
  RunFacts run;
};

struct Summary {
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::size_t skipped = 0;
};

// Writes every byte of the report's text that is not part of a well-formed UTF-8 character as
// "\xNN", so that a name or file read from an image never stops the report from being written.
void escape_invalid_utf8(Report& report);

// Counts the outcomes.
Summary summarize(const std::vector<CheckResult>& checks);

// The report as JSON (docs/formats/report.md).
nlohmann::json report_to_json(const Report& report);

// The report as JUnit XML: one testsuite "envlock-verify", one testcase per check, with
// <failure> or <skipped> elements; no times, so the bytes are deterministic.
std::string report_to_junit(const Report& report);

enum class Colour { off, on };

// The terminal table: one line per check (outcome, id, expected, found, reason), then
// "N passed, N failed, N skipped".
std::string report_to_table(const Report& report, Colour colour);

// Writes the JSON report (canonical JSON) atomically; an environment error names the file.
Status write_json_report(const std::filesystem::path& path, const Report& report);
// Writes the JUnit XML report atomically.
Status write_junit_report(const std::filesystem::path& path, const Report& report);

} // namespace envlock::verify
