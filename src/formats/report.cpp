#include "formats/report.hpp"

namespace envlock::formats {

using nlohmann::json;
using util::FieldReader;

const char* to_string(Outcome outcome) {
  switch (outcome) {
  case Outcome::pass:
    return "pass";
  case Outcome::fail:
    return "fail";
  case Outcome::skip:
    return "skip";
  }
  return "skip";
}

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

json to_json(const CheckResult& check) {
  json figures = json::array();
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

CheckResult read_check(FieldReader& r) {
  CheckResult check;
  check.id = r.str("id");
  check.title = r.str("title");
  const std::string outcome = read_choice(r, "outcome", {"pass", "fail", "skip"});
  check.outcome = outcome == "pass"   ? Outcome::pass
                  : outcome == "fail" ? Outcome::fail
                                      : Outcome::skip;
  check.expected = r.str("expected");
  check.found = r.str("found");
  check.reason = r.str("reason");
  if (const json* figures = r.array("figures"); figures != nullptr) {
    for (std::size_t i = 0; i < figures->size(); ++i) {
      FieldReader f = r.element("figures", i, (*figures)[i]);
      Figure figure;
      figure.name = f.str("name");
      figure.value = f.number("value");
      figure.unit = f.str("unit");
      r.merge(f);
      check.figures.push_back(std::move(figure));
    }
  }
  if (const json* details = r.object("details"); details != nullptr) {
    check.details = *details;
  }
  return check;
}

json to_json(const Report& report) {
  const Summary summary = summarize(report.checks);
  json checks = json::array();
  json seconds = json::object();
  for (const auto& check : report.checks) {
    checks.push_back(to_json(check));
    seconds[check.id] = check.seconds;
  }
  return {
      {"schema", k_report_schema},
      {"tool", {{"name", k_report_tool}, {"version", report.tool_version}}},
      {"mode", report.mode},
      {"lock_sha256", report.lock_sha256},
      {"image_digest", report.image_digest ? json(*report.image_digest) : nullptr},
      {"sqsh_sha256", report.sqsh_sha256 ? json(*report.sqsh_sha256) : nullptr},
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

void read_outcome_and_summary(FieldReader& r, const std::vector<CheckResult>& checks) {
  const Summary counted = summarize(checks);
  const std::string outcome = read_choice(r, "outcome", {"pass", "fail"});
  FieldReader s = r.sub("summary");
  const std::pair<const char*, std::size_t> counts[] = {
      {"passed", counted.passed}, {"failed", counted.failed}, {"skipped", counted.skipped}};
  for (const auto& [key, expected] : counts) {
    const std::uint64_t written = s.uinteger(key);
    if (!s.error() && written != expected) {
      s.fail(s.join(key),
             std::to_string(written) + ", but the checks count " + std::to_string(expected));
    }
  }
  r.merge(s);
  const std::string expected = counted.failed > 0 ? "fail" : "pass";
  if (!r.error() && outcome != expected) {
    r.fail("outcome", "'" + outcome + "', but the checks give '" + expected + "'");
  }
}

namespace {

void read_run(FieldReader& r, Report& report) {
  FieldReader run = r.sub("run");
  report.run.started_at = run.str("started_at");
  report.run.hostname = run.str("hostname");
  report.run.lock_path = run.str("lock_path");
  report.run.root = run.str("root");
  report.run.seconds = run.number("seconds");
  // One wall time per check id; a key no check has is refused as unknown.
  FieldReader seconds = run.sub("check_seconds");
  for (auto& check : report.checks) {
    check.seconds = seconds.number(check.id.c_str());
  }
  run.merge(seconds);
  r.merge(run);
}

} // namespace

template <> Result<Report> from_json<Report>(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the report");
  read_schema(r, k_report_schema);
  Report report;
  FieldReader tool = r.sub("tool");
  const std::string name = tool.str("name");
  if (!tool.error() && name != k_report_tool) {
    tool.fail(tool.join("name"), "'" + name + "' is not " + k_report_tool);
  }
  report.tool_version = tool.str("version");
  r.merge(tool);
  report.mode = read_choice(r, "mode", {"live", "offline"});
  report.lock_sha256 = r.str("lock_sha256");
  report.image_digest = r.nullable_str("image_digest");
  report.sqsh_sha256 = r.nullable_str("sqsh_sha256");
  report.gpu_uuids = r.strings("gpu_uuids");
  if (const json* checks = r.array("checks"); checks != nullptr) {
    for (std::size_t i = 0; i < checks->size(); ++i) {
      FieldReader c = r.element("checks", i, (*checks)[i]);
      report.checks.push_back(read_check(c));
      r.merge(c);
    }
  }
  read_outcome_and_summary(r, report.checks);
  if (const json* details = r.object("details"); details != nullptr) {
    report.details = *details;
  }
  read_run(r, report);
  ENVLOCK_TRY(r.status());
  return report;
}

Result<Report> read_report(const std::filesystem::path& path) {
  return read_record<Report>(path);
}

Status write_report(const std::filesystem::path& path, const Report& report) {
  return util::write_json_file(path, to_json(report));
}

} // namespace envlock::formats
