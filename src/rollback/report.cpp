#include "rollback/report.hpp"

#include <algorithm>
#include <sstream>

namespace envlock::rollback {

using formats::count_outcome;

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
