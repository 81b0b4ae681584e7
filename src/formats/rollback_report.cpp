#include "formats/rollback_report.hpp"

#include <algorithm>

namespace envlock::formats {

using nlohmann::json;
using util::FieldReader;

namespace {

json null_if_empty(const std::string& text) {
  return text.empty() ? json() : json(text);
}

const std::vector<std::string>& outcome_names() {
  static const std::vector<std::string> names = {"pass", "fail", "error"};
  return names;
}

RollbackOutcome outcome_from(const std::string& text) {
  return text == "pass"   ? RollbackOutcome::pass
         : text == "fail" ? RollbackOutcome::fail
                          : RollbackOutcome::error;
}

} // namespace

const char* to_string(RollbackOutcome outcome) {
  switch (outcome) {
  case RollbackOutcome::pass:
    return "pass";
  case RollbackOutcome::fail:
    return "fail";
  case RollbackOutcome::error:
    return "error";
  }
  return "error";
}

std::size_t count_outcome(const RollbackReport& report, RollbackOutcome outcome) {
  return static_cast<std::size_t>(
      std::count_if(report.checks.begin(), report.checks.end(),
                    [outcome](const RollbackCheck& check) { return check.outcome == outcome; }));
}

RollbackOutcome outcome_of(const RollbackReport& report) {
  if (count_outcome(report, RollbackOutcome::fail) > 0) {
    return RollbackOutcome::fail;
  }
  return count_outcome(report, RollbackOutcome::error) > 0 ? RollbackOutcome::error
                                                           : RollbackOutcome::pass;
}

json to_json(const RollbackReport& report) {
  json checks = json::array();
  for (const auto& check : report.checks) {
    checks.push_back({{"id", check.id},
                      {"target", check.target},
                      {"outcome", to_string(check.outcome)},
                      {"found", check.found},
                      {"reason", check.reason},
                      {"source", check.source}});
  }
  json previous = {{"lock", report.previous_lock},
                   {"lock_sha256", report.previous_lock_sha256},
                   {"base_image", report.previous_base_image},
                   {"image", null_if_empty(report.previous_image)},
                   {"sqsh", nullptr}};
  if (!report.previous_sqsh.empty()) {
    previous["sqsh"] = {{"file", report.previous_sqsh}, {"sha256", report.previous_sqsh_sha256}};
  }
  json current = nullptr;
  if (!report.current_lock.empty()) {
    current = {{"lock", report.current_lock}, {"lock_sha256", report.current_lock_sha256}};
  }
  return {{"schema", k_rollback_report_schema},
          {"tool", {{"name", "envlock"}, {"version", report.tool_version}}},
          {"outcome", to_string(outcome_of(report))},
          {"summary",
           {{"passed", count_outcome(report, RollbackOutcome::pass)},
            {"failed", count_outcome(report, RollbackOutcome::fail)},
            {"errors", count_outcome(report, RollbackOutcome::error)}}},
          {"previous", std::move(previous)},
          {"current", std::move(current)},
          {"checks", std::move(checks)},
          {"run",
           {{"checked_at", report.checked_at},
            {"hostname", report.hostname},
            {"seconds", report.seconds}}}};
}

namespace {

void read_previous(FieldReader& r, RollbackReport& report) {
  FieldReader p = r.sub("previous");
  report.previous_lock = p.str("lock");
  report.previous_lock_sha256 = p.str("lock_sha256");
  report.previous_base_image = p.str("base_image");
  report.previous_image = p.nullable_str("image").value_or("");
  if (const json* sqsh = p.any("sqsh"); sqsh == nullptr || !sqsh->is_null()) {
    FieldReader s = p.sub("sqsh");
    report.previous_sqsh = s.str("file");
    report.previous_sqsh_sha256 = s.str("sha256");
    p.merge(s);
  }
  r.merge(p);
  if (const json* current = r.any("current"); current == nullptr || !current->is_null()) {
    FieldReader c = r.sub("current");
    report.current_lock = c.str("lock");
    report.current_lock_sha256 = c.str("lock_sha256");
    r.merge(c);
  }
}

void check_counts(FieldReader& r, const RollbackReport& report) {
  const std::string outcome = read_choice(r, "outcome", outcome_names());
  FieldReader s = r.sub("summary");
  const std::pair<const char*, RollbackOutcome> counts[] = {{"passed", RollbackOutcome::pass},
                                                            {"failed", RollbackOutcome::fail},
                                                            {"errors", RollbackOutcome::error}};
  for (const auto& [key, which] : counts) {
    const std::uint64_t written = s.uinteger(key);
    const std::size_t counted = count_outcome(report, which);
    if (!s.error() && written != counted) {
      s.fail(s.join(key),
             std::to_string(written) + ", but the checks count " + std::to_string(counted));
    }
  }
  r.merge(s);
  const std::string expected = to_string(outcome_of(report));
  if (!r.error() && outcome != expected) {
    r.fail("outcome", "'" + outcome + "', but the checks give '" + expected + "'");
  }
}

} // namespace

template <>
Result<RollbackReport> from_json<RollbackReport>(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the rollback report");
  read_schema(r, k_rollback_report_schema);
  RollbackReport report;
  FieldReader tool = r.sub("tool");
  const std::string name = tool.str("name");
  if (!tool.error() && name != "envlock") {
    tool.fail(tool.join("name"), "'" + name + "' is not envlock");
  }
  report.tool_version = tool.str("version");
  r.merge(tool);
  read_previous(r, report);
  if (const json* checks = r.array("checks"); checks != nullptr) {
    for (std::size_t i = 0; i < checks->size(); ++i) {
      FieldReader c = r.element("checks", i, (*checks)[i]);
      RollbackCheck check;
      check.id = c.str("id");
      check.target = c.str("target");
      check.outcome = outcome_from(read_choice(c, "outcome", outcome_names()));
      check.found = c.str("found");
      check.reason = c.str("reason");
      check.source = c.str("source");
      r.merge(c);
      report.checks.push_back(std::move(check));
    }
  }
  check_counts(r, report);
  FieldReader run = r.sub("run");
  report.checked_at = run.str("checked_at");
  report.hostname = run.str("hostname");
  report.seconds = run.number("seconds");
  r.merge(run);
  ENVLOCK_TRY(r.status());
  return report;
}

Result<RollbackReport> read_rollback_report(const std::filesystem::path& path) {
  return read_record<RollbackReport>(path);
}

Status write_rollback_report(const std::filesystem::path& path, const RollbackReport& report) {
  return util::write_json_file(path, to_json(report));
}

} // namespace envlock::formats
