// The verification report (envlock.report/v1, docs/formats/report.md): every check of one run of
// envlock-verify (or `envlock verify`), plus the facts that identify what was checked. Facts that
// change from run to run (times, the host name, paths of this machine, durations) live in `run`,
// so two reports of the same image on the same kind of node differ only there and in measured
// figures. `envlock fleet`, `envlock chain verify` and `envlock handover` read it; the checks'
// form is also that of `envlock node --check`'s (node_facts.hpp).
#pragma once

#include "formats/record.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::formats {

inline constexpr const char* k_report_schema = "envlock.report/v1";
inline constexpr const char* k_report_tool = "envlock-verify";

enum class Outcome { pass, fail, skip };

// "pass" / "fail" / "skip"
const char* to_string(Outcome outcome);

// A measured number (bandwidth, TFLOP/s, busbw, wall time), reported as is, never judged here
// unless the lock sets a threshold.
struct Figure {
  std::string name; // e.g. "busbw_1GiB"
  double value = 0;
  std::string unit; // e.g. "GB/s"
  bool operator==(const Figure&) const = default;
};

struct CheckResult {
  std::string id;    // stable key, e.g. "cuda.driver", "nccl.version", "gpu.0.smoke"
  std::string group; // the --check group that runs it: "cuda", "smoke", ...; not written
  std::string title; // human words for the table
  Outcome outcome = Outcome::skip;
  std::string expected; // what the lock says ("" when the lock says nothing)
  std::string found;    // what was found on the node
  std::string reason;   // why it failed or was skipped; empty on a plain pass
  std::vector<Figure> figures;
  nlohmann::json details = nlohmann::json::object(); // check-specific extras (paths, lists)
  double seconds = 0; // wall time of the check (written in run.check_seconds)
  bool operator==(const CheckResult&) const = default;
};

struct RunFacts {
  std::string started_at; // UTC, RFC 3339, seconds
  std::string hostname;
  std::string lock_path;
  std::string root; // --root, empty when live
  double seconds = 0;
  bool operator==(const RunFacts&) const = default;
};

struct Report {
  std::string tool_version;
  std::string mode; // "live" or "offline"
  std::string lock_sha256;
  std::optional<std::string> image_digest; // the image the node ran; null when not given
  std::optional<std::string> sqsh_sha256;  // the .sqsh it came from; null when none
  std::vector<std::string> gpu_uuids;
  std::vector<CheckResult> checks;
  // What the run looked at as a whole: "chain", where the links came from, and "environment",
  // the Python environment it checked and how it found it.
  nlohmann::json details = nlohmann::json::object();
  // Lines shown above the table (the Python environment, warnings); not written.
  std::vector<std::string> notes;
  RunFacts run;
};

struct Summary {
  std::size_t passed = 0;
  std::size_t failed = 0;
  std::size_t skipped = 0;
};

// Counts the outcomes.
Summary summarize(const std::vector<CheckResult>& checks);

// One check as the report writes it (without its seconds, which go to run.check_seconds).
nlohmann::json to_json(const CheckResult& check);

// Reads one check object through `r` ("checks[3]"): id, title, outcome (pass, fail or skip),
// expected, found, reason, figures ({name, value, unit}) and details (an object).
CheckResult read_check(util::FieldReader& r);

// Reads `outcome` and `summary` through `r` and records an error unless they are what `checks`
// give ("summary.failed: 0, but the checks count 1").
void read_outcome_and_summary(util::FieldReader& r, const std::vector<CheckResult>& checks);

// The report as JSON; `outcome` (fail when a check failed, else pass) and `summary` are counted
// from the checks.
nlohmann::json to_json(const Report& report);

// Reads a report. `outcome` and `summary` must agree with the checks, and every check has its
// seconds in run.check_seconds; an input error names `origin` and the field.
template <>
Result<Report> from_json<Report>(const nlohmann::json& value, const std::string& origin);

Result<Report> read_report(const std::filesystem::path& path);

// Writes the JSON report (canonical JSON) atomically; an environment error names the file.
Status write_report(const std::filesystem::path& path, const Report& report);

} // namespace envlock::formats
