#include "fleet/drain.hpp"

#include "fleet/hostlist.hpp"

#include <algorithm>

namespace envlock::fleet {

namespace {

bool is_drained(const NodeState& state) {
  return state.state.find("drain") != std::string::npos;
}

std::string drain_reason(const FleetReport& report, const std::string& node) {
  std::vector<std::string> problems;
  for (const auto& f : report.failures) {
    if (f.node == node) {
      problems.push_back(f.drain.empty() ? f.check + " failed" : f.drain);
    }
  }
  for (const auto& o : report.outliers) {
    if (o.node == node) {
      problems.push_back(o.check + " " + o.figure + " low");
    }
  }
  for (const auto& m : report.missing) {
    if (m.node == node) {
      problems.emplace_back("no report");
    }
  }
  if (problems.empty()) {
    return std::string(k_reason_prefix) + "failed";
  }
  std::string reason = std::string(k_reason_prefix) + problems.front();
  if (problems.size() > 1) {
    reason += " (+" + std::to_string(problems.size() - 1) + " more)";
  }
  return reason;
}

DrainAction action(const std::string& node, const std::string& state, const std::string& reason) {
  DrainAction a;
  a.node = node;
  a.argv = {"scontrol", "update", "nodename=" + node, "state=" + state};
  a.line = "scontrol update nodename=" + node + " state=" + state;
  if (!reason.empty()) {
    a.argv.push_back("reason=" + reason);
    a.line += " reason=\"" + reason + "\"";
  }
  return a;
}

} // namespace

std::vector<NodeVerdict> verdicts_from_report(const FleetReport& report) {
  std::vector<NodeVerdict> out;
  for (const auto& node : report.nodes) {
    // A node no job ran on is neither drained nor resumed: nothing is known of it.
    if (report.node_outcomes.at(node) == NodeOutcome::not_verified) {
      continue;
    }
    const bool passed = report.node_outcomes.at(node) == NodeOutcome::pass;
    out.push_back({node, passed, passed ? "" : drain_reason(report, node)});
  }
  return out;
}

std::vector<NodeVerdict> merge_verdicts(const std::vector<std::vector<NodeVerdict>>& lists) {
  std::map<std::string, NodeVerdict> merged;
  for (const auto& list : lists) {
    for (const auto& verdict : list) {
      auto [it, inserted] = merged.emplace(verdict.node, verdict);
      if (!inserted && it->second.passed && !verdict.passed) {
        it->second = verdict;
      }
    }
  }
  std::vector<NodeVerdict> out;
  for (auto& [node, verdict] : merged) {
    out.push_back(std::move(verdict));
  }
  std::sort(out.begin(), out.end(),
            [](const NodeVerdict& a, const NodeVerdict& b) { return node_less(a.node, b.node); });
  return out;
}

std::vector<DrainAction> drain_actions(const std::vector<NodeVerdict>& verdicts,
                                       const std::map<std::string, NodeState>& states) {
  std::vector<DrainAction> out;
  for (const auto& verdict : verdicts) {
    const auto it = states.find(verdict.node);
    if (it == states.end()) {
      continue;
    }
    const bool drained = is_drained(it->second);
    if (!verdict.passed && !drained) {
      out.push_back(action(verdict.node, "drain", verdict.reason));
    } else if (verdict.passed && drained && it->second.reason.rfind(k_reason_prefix, 0) == 0) {
      out.push_back(action(verdict.node, "resume", ""));
    }
  }
  return out;
}

} // namespace envlock::fleet
