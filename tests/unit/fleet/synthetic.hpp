// Node reports for the fleet tests, typed as the verifier writes them (formats/report.hpp).
#pragma once

#include "fleet/fleet_report.hpp"

#include <string>
#include <vector>

namespace envlock::test {

struct SyntheticCheck {
  std::string id;
  std::string outcome;
  std::string expected;
  std::string found;
  std::string reason;
  std::vector<std::tuple<std::string, double, std::string>> figures; // name, value, unit
};

inline fleet::NodeInput synthetic_node(const std::string& node,
                                       const std::vector<SyntheticCheck>& checks, int exit_code) {
  formats::Report report;
  report.mode = "live";
  for (const auto& c : checks) {
    formats::CheckResult check;
    check.id = c.id;
    check.title = c.id;
    check.outcome = c.outcome == "pass"   ? formats::Outcome::pass
                    : c.outcome == "fail" ? formats::Outcome::fail
                                          : formats::Outcome::skip;
    check.expected = c.expected;
    check.found = c.found;
    check.reason = c.reason;
    for (const auto& [name, value, unit] : c.figures) {
      check.figures.push_back({name, value, unit});
    }
    report.checks.push_back(std::move(check));
  }
  fleet::NodeInput input;
  input.node = node;
  input.reported = true;
  input.exit_code = exit_code;
  input.report = std::move(report);
  return input;
}

inline fleet::NodeInput missing_node(const std::string& node, const std::string& problem) {
  fleet::NodeInput input;
  input.node = node;
  input.problem = problem;
  return input;
}

} // namespace envlock::test
