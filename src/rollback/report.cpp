#include "rollback/report.hpp"

#include <algorithm>
#include <sstream>

namespace envlock::rollback {

using nlohmann::json;

const char* to_string(Outcome outcome) {
  switch (outcome) {
  case Outcome::pass:
    return "pass";
  case Outcome::fail:
    return "fail";
  case Outcome::error:
    return "error";
  }
  return "error";
}

namespace {

std::size_t count_outcome(const Report& report, Outcome outcome) {
  return static_cast<std::size_t>(
      std::count_if(report.checks.begin(), report.checks.end(),
                    [outcome](const Check& check) { return check.outcome == outcome; }));
}

json null_if_empty(const std::string& text) {
  return text.empty() ? json() : json(text);
}

} // namespace

Outcome outcome_of(const Report& report) {
  if (count_outcome(report, Outcome::fail) > 0) {
    return Outcome::fail;
  }
  return count_outcome(report, Outcome::error) > 0 ? Outcome::error : Outcome::pass;
}

ExitCode exit_code_of(const Report& report) {
  switch (outcome_of(report)) {
  case Outcome::pass:
    return ExitCode::ok;
  case Outcome::fail:
    return ExitCode::failed;
  case Outcome::error:
    return ExitCode::environment;
  }
  return ExitCode::environment;
}

json report_to_json(const Report& report) {
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
  return {{"schema", k_report_schema},
          {"tool", {{"name", "envlock"}, {"version", report.tool_version}}},
          {"outcome", to_string(outcome_of(report))},
          {"summary",
           {{"passed", count_outcome(report, Outcome::pass)},
            {"failed", count_outcome(report, Outcome::fail)},
            {"errors", count_outcome(report, Outcome::error)}}},
          {"previous", std::move(previous)},
          {"current", std::move(current)},
          {"checks", std::move(checks)},
          {"run",
           {{"checked_at", report.checked_at},
            {"hostname", report.hostname},
            {"seconds", report.seconds}}}};
}

std::string report_to_text(const Report& report) {
  std::size_t width = 0;
  for (const auto& check : report.checks) {
    width = std::max(width, check.id.size());
  }
  std::ostringstream out;
  for (const auto& check : report.checks) {
    std::string label = to_string(check.outcome);
    for (char& c : label) {
      c = static_cast<char>(c - 'a' + 'A');
    }
    out << label << std::string(6 - label.size(), ' ') << check.id
        << std::string(width + 2 - check.id.size(), ' ')
        << (check.outcome == Outcome::pass ? check.target + ": " + check.found : check.reason)
        << "\n";
  }
  const std::size_t passed = count_outcome(report, Outcome::pass);
  const std::size_t failed = count_outcome(report, Outcome::fail);
  const std::size_t errors = count_outcome(report, Outcome::error);
  out << "rollback to " << report.previous_lock << ": ";
  switch (outcome_of(report)) {
  case Outcome::pass:
    out << "ready (" << passed << " passed)\n";
    break;
  case Outcome::fail:
    out << "not ready (" << failed << " failed, " << passed << " passed";
    out << (errors > 0 ? ", " + std::to_string(errors) + " not checked" : "") << ")\n";
    break;
  case Outcome::error:
    out << "unknown (" << errors << " not checked, " << passed << " passed)\n";
    break;
  }
  return out.str();
}

} // namespace envlock::rollback
