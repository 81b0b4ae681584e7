#include "fleet/fleet_report.hpp"
#include "fleet/hostlist.hpp"
#include "fleet/outliers.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

namespace envlock::fleet {

namespace {

std::string text_of(const nlohmann::json& check, const char* key) {
  const auto it = check.find(key);
  return it != check.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The checks of a node: the verifier's, then the host checks of `envlock node --check`.
std::vector<const nlohmann::json*> checks_of(const NodeInput& node) {
  std::vector<const nlohmann::json*> out;
  for (const nlohmann::json* source : {&node.report, &node.host}) {
    if (!source->is_object()) {
      continue;
    }
    const auto checks = source->find("checks");
    if (checks == source->end() || !checks->is_array()) {
      continue;
    }
    for (const auto& check : *checks) {
      if (check.is_object() && check.contains("id") && check["id"].is_string()) {
        out.push_back(&check);
      }
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
  const auto text = [&](const char* key) { return text_of(node.report, key); };
  const bool sqsh = options.image.ends_with(".sqsh");
  struct Link {
    const char* what;
    std::string expected;
    std::string found;
  };
  const std::string sqsh_sha = text("sqsh_sha256");
  const std::vector<Link> links = {
      {"lock_sha256", options.lock_sha256, text("lock_sha256")},
      sqsh ? Link{"sqsh_sha256", options.image_digest, sqsh_sha.empty() ? "" : "sha256:" + sqsh_sha}
           : Link{"image_digest", options.image_digest, text("image_digest")}};
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
std::string health_cell(const std::vector<const nlohmann::json*>& checks) {
  std::string cell;
  for (const nlohmann::json* check : checks) {
    if (text_of(*check, "id").rfind("health.", 0) != 0) {
      continue;
    }
    const std::string outcome = text_of(*check, "outcome");
    const bool warned = outcome == "pass" && text_of(*check, "reason").rfind("warning: ", 0) == 0;
    if (outcome == "fail") {
      return "fail";
    }
    if (warned) {
      cell = "warn";
    } else if (outcome == "pass" && cell != "warn") {
      cell = "pass";
    } else if (cell.empty()) {
      cell = "skip";
    }
  }
  return cell;
}

// A failed check's drain line, when it has one (health checks).
std::string drain_of(const nlohmann::json& check) {
  const auto details = check.find("details");
  if (details == check.end() || !details->is_object()) {
    return "";
  }
  return text_of(*details, "drain");
}

void add_node(FleetReport& report, std::set<std::string>& seen, const NodeInput& node,
              const AggregateOptions& options) {
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
  auto& row = report.matrix[node.node];
  bool failed = false;
  const auto checks = checks_of(node);
  if (const std::string health = health_cell(checks); !health.empty()) {
    report.health[node.node] = health;
  }
  for (const nlohmann::json* check : checks) {
    const std::string id = (*check)["id"];
    const std::string outcome = text_of(*check, "outcome");
    row[id] = outcome;
    if (seen.insert(id).second) {
      report.checks.push_back(id);
    }
    if (outcome == "fail") {
      failed = true;
      report.failures.push_back({node.node, id, text_of(*check, "expected"),
                                 text_of(*check, "found"), text_of(*check, "reason"),
                                 drain_of(*check)});
    }
  }
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

const char* to_string(NodeOutcome outcome) {
  switch (outcome) {
  case NodeOutcome::pass:
    return "pass";
  case NodeOutcome::fail:
    return "fail";
  case NodeOutcome::missing:
    return "missing";
  case NodeOutcome::not_verified:
    return "not_verified";
  }
  return "missing";
}

std::vector<std::string> FleetReport::nodes_with(NodeOutcome outcome) const {
  std::vector<std::string> out;
  for (const auto& node : nodes) {
    const auto it = node_outcomes.find(node);
    if (it != node_outcomes.end() && it->second == outcome) {
      out.push_back(node);
    }
  }
  return out;
}

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
