// Synthetic node reports (envlock.report/v1) for the fleet tests.
#pragma once

#include "fleet/fleet_report.hpp"

#include <nlohmann/json.hpp>
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
  nlohmann::json list = nlohmann::json::array();
  for (const auto& c : checks) {
    nlohmann::json figures = nlohmann::json::array();
    for (const auto& [name, value, unit] : c.figures) {
      figures.push_back({{"name", name}, {"value", value}, {"unit", unit}});
    }
    list.push_back({{"id", c.id},
                    {"title", c.id},
                    {"outcome", c.outcome},
                    {"expected", c.expected},
                    {"found", c.found},
                    {"reason", c.reason},
                    {"figures", figures},
                    {"details", nlohmann::json::object()}});
  }
  fleet::NodeInput input;
  input.node = node;
  input.reported = true;
  input.exit_code = exit_code;
  input.report = {{"schema", "envlock.report/v1"}, {"checks", list}, {"outcome", "pass"}};
  return input;
}

inline fleet::NodeInput missing_node(const std::string& node, const std::string& problem) {
  fleet::NodeInput input;
  input.node = node;
  input.problem = problem;
  return input;
}

} // namespace envlock::test
