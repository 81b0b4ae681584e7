#include "verify/report/report.hpp"

#include "util/fs.hpp"
#include "util/json.hpp"

namespace envlock::verify {

Summary summarize(const std::vector<CheckResult>& checks) {
  Summary summary;
  for (const auto& check : checks) {
    switch (check.outcome) {
    case Outcome::pass:
      ++summary.passed;
      break;
    case Outcome::fail:
      ++summary.failed;
      break;
    case Outcome::skip:
      ++summary.skipped;
      break;
    }
  }
  return summary;
}

namespace {

nlohmann::json check_to_json(const CheckResult& check) {
  nlohmann::json figures = nlohmann::json::array();
  for (const auto& figure : check.figures) {
    figures.push_back({{"name", figure.name}, {"value", figure.value}, {"unit", figure.unit}});
  }
  return {{"id", check.id},
          {"title", check.title},
          {"outcome", to_string(check.outcome)},
          {"expected", check.expected},
          {"found", check.found},
          {"reason", check.reason},
          {"figures", figures},
          {"details", check.details}};
}

} // namespace

nlohmann::json report_to_json(const Report& report) {
  const Summary summary = summarize(report.checks);
  nlohmann::json checks = nlohmann::json::array();
  nlohmann::json seconds = nlohmann::json::object();
  for (const auto& check : report.checks) {
    checks.push_back(check_to_json(check));
    seconds[check.id] = check.seconds;
  }
  return {
      {"schema", k_report_schema},
      {"tool", {{"name", "envlock-verify"}, {"version", report.tool_version}}},
      {"mode", report.mode},
      {"lock_sha256", report.lock_sha256},
      {"image_digest", report.image_digest ? nlohmann::json(*report.image_digest) : nullptr},
      {"sqsh_sha256", report.sqsh_sha256 ? nlohmann::json(*report.sqsh_sha256) : nullptr},
      {"gpu_uuids", report.gpu_uuids},
      {"outcome", summary.failed > 0 ? "fail" : "pass"},
      {"summary",
       {{"passed", summary.passed}, {"failed", summary.failed}, {"skipped", summary.skipped}}},
      {"checks", checks},
      {"details", report.details},
      {"run",
       {{"started_at", report.run.started_at},
        {"hostname", report.run.hostname},
        {"lock_path", report.run.lock_path},
        {"root", report.run.root},
        {"seconds", report.run.seconds},
        {"check_seconds", seconds}}},
  };
}

Status write_json_report(const std::filesystem::path& path, const Report& report) {
  return util::write_file_atomic(path, util::canonical_json(report_to_json(report)));
}

} // namespace envlock::verify
