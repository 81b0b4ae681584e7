#include "fleet/fleet_report.hpp"
#include "fleet/hostlist.hpp"
#include "fleet/outliers.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

namespace envlock::fleet {

namespace {

// The checks of a node: the verifier's, then the host checks of `envlock node --check`.
std::vector<const formats::CheckResult*> checks_of(const NodeInput& node) {
  std::vector<const formats::CheckResult*> out;
  for (const auto& check : node.report.checks) {
    out.push_back(&check);
  }
  if (node.host && node.host->checks) {
    for (const auto& check : *node.host->checks) {
      out.push_back(&check);
    }
  }
  return out;
}

// The chain column: the links the node's report names (the lock it checked, the image or .sqsh
// it ran) against the fleet's. "pass" when every link both name agrees, "fail" on the first that
// does not, "skip" when the report names none (nothing is guessed).
struct ChainCell {
  std::string outcome;
  std::optional<Failure> failure;
};

ChainCell chain_cell(const NodeInput& node, const AggregateOptions& options) {
  const formats::Report& report = node.report;
  const bool sqsh = options.image.ends_with(".sqsh");
  struct Link {
    const char* what;
    std::string expected;
    std::string found;
  };
  const std::string sqsh_sha = report.sqsh_sha256.value_or("");
  const std::vector<Link> links = {
      {"lock_sha256", options.lock_sha256, report.lock_sha256},
      sqsh ? Link{"sqsh_sha256", options.image_digest, sqsh_sha.empty() ? "" : "sha256:" + sqsh_sha}
           : Link{"image_digest", options.image_digest, report.image_digest.value_or("")}};
  bool compared = false;
  for (const auto& link : links) {
    if (link.expected.empty() || link.found.empty()) {
      continue;
    }
    compared = true;
    if (link.expected != link.found) {
      return {"fail", Failure{node.node, "chain", link.expected, link.found,
                              std::string("the report's ") + link.what +
                                  " is not the fleet's: the node checked another " +
                                  (std::string_view(link.what) == "lock_sha256" ? "lock" : "image"),
                              ""}};
    }
  }
  return {compared ? "pass" : "skip", std::nullopt};
}

// The health column: the node's health checks (ids "health.*") folded ("" when it has none).
std::string health_cell(const std::vector<const formats::CheckResult*>& checks) {
  std::string cell;
  for (const formats::CheckResult* check : checks) {
    if (!check->id.starts_with("health.")) {
      continue;
    }
    const bool warned =
        check->outcome == formats::Outcome::pass && check->reason.starts_with("warning: ");
    if (check->outcome == formats::Outcome::fail) {
      return "fail";
    }
    if (warned) {
      cell = "warn";
    } else if (check->outcome == formats::Outcome::pass && cell != "warn") {
      cell = "pass";
    } else if (cell.empty()) {
      cell = "skip";
    }
  }
  return cell;
}

// A failed check's drain line, when it has one (health checks).
std::string drain_of(const formats::CheckResult& check) {
  const auto drain = check.details.find("drain");
  return drain != check.details.end() && drain->is_string() ? drain->get<std::string>() : "";
}

// True when a check of the node failed (the host checks of a node whose verifier left no report
// still judge it: every result that reached the results folder is used).
bool any_failed(const std::vector<const formats::CheckResult*>& checks) {
  return std::any_of(checks.begin(), checks.end(), [](const formats::CheckResult* check) {
    return check->outcome == formats::Outcome::fail;
  });
}

// The node's row of the matrix, its health cell and its failed checks; true when one failed.
bool judge_checks(FleetReport& report, std::set<std::string>& seen, const NodeInput& node) {
  auto& row = report.matrix[node.node];
  bool failed = false;
  const auto checks = checks_of(node);
  if (const std::string health = health_cell(checks); !health.empty()) {
    report.health[node.node] = health;
  }
  for (const formats::CheckResult* check : checks) {
    row[check->id] = to_string(check->outcome);
    if (seen.insert(check->id).second) {
      report.checks.push_back(check->id);
    }
    if (check->outcome == formats::Outcome::fail) {
      failed = true;
      report.failures.push_back(
          {node.node, check->id, check->expected, check->found, check->reason, drain_of(*check)});
    }
  }
  if (failed && !node.reported) {
    report.node_outcomes[node.node] = NodeOutcome::fail;
  }
  return failed;
}

void add_node(FleetReport& report, std::set<std::string>& seen, const NodeInput& node,
              const AggregateOptions& options) {
  if (!node.reported && any_failed(checks_of(node))) {
    judge_checks(report, seen, node);
    return;
  }
  if (!node.reported && node.not_verified) {
    report.node_outcomes[node.node] = NodeOutcome::not_verified;
    report.not_verified.push_back({node.node, *node.not_verified});
    return;
  }
  if (!node.reported) {
    report.node_outcomes[node.node] = NodeOutcome::missing;
    report.missing.push_back({node.node, node.problem.empty() ? "no report" : node.problem});
    return;
  }
  bool failed = judge_checks(report, seen, node);
  ChainCell chain = chain_cell(node, options);
  report.chain[node.node] = chain.outcome;
  if (chain.failure) {
    failed = true;
    report.failures.push_back(std::move(*chain.failure));
  }
  if (!failed && node.exit_code.value_or(0) != 0) {
    failed = true;
    report.failures.push_back(
        {node.node, "verifier", "exit 0", "exit " + std::to_string(*node.exit_code),
         node.problem.empty() ? "envlock-verify did not finish its checks" : node.problem, ""});
  }
  report.node_outcomes[node.node] = failed ? NodeOutcome::fail : NodeOutcome::pass;
}

} // namespace

FleetReport aggregate(std::vector<NodeInput> nodes, const AggregateOptions& options) {
  std::sort(nodes.begin(), nodes.end(),
            [](const NodeInput& a, const NodeInput& b) { return node_less(a.node, b.node); });
  FleetReport report;
  report.image = options.image;
  report.image_digest = options.image_digest;
  report.lock_sha256 = options.lock_sha256;
  std::set<std::string> seen;
  for (const auto& node : nodes) {
    report.nodes.push_back(node.node);
    add_node(report, seen, node, options);
  }
  report.reference_node =
      options.reference.empty() && !nodes.empty() ? nodes.front().node : options.reference;
  report.outliers = find_outliers(nodes, report.reference_node, options);
  for (const auto& outlier : report.outliers) {
    report.node_outcomes[outlier.node] = NodeOutcome::fail;
  }
  return report;
}

} // namespace envlock::fleet
