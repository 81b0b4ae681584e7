// The health rules: one stable id per kind of fault, what it means and what an operator does.
// docs/manual/health.md's fault table lists the same rows (a unit test compares them).
#pragma once

#include <string>
#include <vector>

namespace envlock::node::health {

struct Rule {
  std::string id;      // "health.gpu.row_remap_pending"
  std::string title;   // the check's title: "No row remap pending"
  std::string meaning; // what a finding means
  std::string action;  // what an operator does (a fail's action; see the manual for warnings)
};

// Every rule, in the order the checks are reported (the first failing one names the drain).
const std::vector<Rule>& health_rules();

// The rule `id`; the program is wrong when there is none (it aborts).
const Rule& health_rule(const std::string& id);

} // namespace envlock::node::health
