#include "fleet/fleet_report.hpp"

namespace envlock::fleet {

namespace {

std::optional<NodeOutcome> node_outcome_from(const std::string& text) {
  for (const NodeOutcome o :
       {NodeOutcome::pass, NodeOutcome::fail, NodeOutcome::missing, NodeOutcome::not_verified}) {
    if (text == to_string(o)) {
      return o;
    }
  }
  return std::nullopt;
}

} // namespace

nlohmann::json fleet_report_to_json(const FleetReport& report) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& node : report.nodes) {
    const auto row = report.matrix.find(node);
    const auto chain = report.chain.find(node);
    const auto health = report.health.find(node);
    nodes.push_back({{"node", node},
                     {"health", health == report.health.end() ? nlohmann::json(nullptr)
                                                              : nlohmann::json(health->second)},
                     {"outcome", to_string(report.node_outcomes.at(node))},
                     {"chain", chain == report.chain.end() ? nlohmann::json(nullptr)
                                                           : nlohmann::json(chain->second)},
                     {"checks", row == report.matrix.end() ? nlohmann::json::object()
                                                           : nlohmann::json(row->second)}});
  }
  nlohmann::json failures = nlohmann::json::array();
  for (const auto& f : report.failures) {
    nlohmann::json failure = {{"node", f.node},
                              {"check", f.check},
                              {"expected", f.expected},
                              {"found", f.found},
                              {"reason", f.reason}};
    if (!f.drain.empty()) {
      failure["drain"] = f.drain;
    }
    failures.push_back(std::move(failure));
  }
  nlohmann::json outliers = nlohmann::json::array();
  for (const auto& o : report.outliers) {
    outliers.push_back({{"node", o.node},
                        {"check", o.check},
                        {"figure", o.figure},
                        {"unit", o.unit},
                        {"value", o.value},
                        {"against", o.against},
                        {"source", o.source}});
  }
  nlohmann::json missing = nlohmann::json::array();
  for (const auto& m : report.missing) {
    missing.push_back({{"node", m.node}, {"reason", m.reason}});
  }
  nlohmann::json not_verified = nlohmann::json::array();
  for (const auto& n : report.not_verified) {
    not_verified.push_back({{"node", n.node}, {"reason", n.reason}});
  }
  return {
      {"schema", k_fleet_report_schema},
      {"image", report.image},
      {"image_digest", report.image_digest},
      {"lock_sha256", report.lock_sha256},
      {"reference_node", report.reference_node},
      {"outcome", report.passed() ? "pass" : "fail"},
      {"summary",
       {{"nodes", report.nodes.size()},
        {"passed", report.nodes_with(NodeOutcome::pass).size()},
        {"failed", report.nodes_with(NodeOutcome::fail).size()},
        {"missing", report.nodes_with(NodeOutcome::missing).size()},
        {"not_verified", report.nodes_with(NodeOutcome::not_verified).size()}}},
      {"checks", report.checks},
      {"nodes", nodes},
      {"failures", failures},
      {"outliers", outliers},
      {"missing", missing},
      {"not_verified", not_verified},
  };
}

std::optional<FleetReport> fleet_report_from_json(const nlohmann::json& value) {
  if (!value.is_object() || value.value("schema", "") != k_fleet_report_schema) {
    return std::nullopt;
  }
  try {
    FleetReport report;
    report.image = value.at("image");
    report.image_digest = value.at("image_digest");
    report.lock_sha256 = value.at("lock_sha256");
    report.reference_node = value.at("reference_node");
    report.checks = value.at("checks").get<std::vector<std::string>>();
    for (const auto& node : value.at("nodes")) {
      const std::string name = node.at("node");
      const auto outcome = node_outcome_from(node.at("outcome"));
      if (!outcome) {
        return std::nullopt;
      }
      report.nodes.push_back(name);
      report.node_outcomes[name] = *outcome;
      report.matrix[name] = node.at("checks").get<std::map<std::string, std::string>>();
      if (const auto chain = node.find("chain"); chain != node.end() && chain->is_string()) {
        report.chain[name] = chain->get<std::string>();
      }
      // Absent in reports written before envlock judged health.
      if (const auto health = node.find("health"); health != node.end() && health->is_string()) {
        report.health[name] = health->get<std::string>();
      }
    }
    for (const auto& f : value.at("failures")) {
      report.failures.push_back({f.at("node"), f.at("check"), f.at("expected"), f.at("found"),
                                 f.at("reason"), f.value("drain", std::string())});
    }
    for (const auto& o : value.at("outliers")) {
      report.outliers.push_back({o.at("node"), o.at("check"), o.at("figure"), o.at("unit"),
                                 o.at("value"), o.at("against"), o.at("source")});
    }
    for (const auto& m : value.at("missing")) {
      report.missing.push_back({m.at("node"), m.at("reason")});
    }
    // Absent in reports written before envlock knew nodes it could not verify.
    for (const auto& n : value.value("not_verified", nlohmann::json::array())) {
      report.not_verified.push_back({n.at("node"), n.at("reason")});
    }
    return report;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

} // namespace envlock::fleet
