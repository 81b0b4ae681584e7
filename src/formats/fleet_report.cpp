#include "formats/fleet_report.hpp"

namespace envlock::formats {

using nlohmann::json;
using util::FieldReader;
using util::Presence;

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

namespace {

json sdc_json(const FleetSdc& sdc) {
  json groups = json::array();
  for (const auto& g : sdc.groups) {
    json group = {{"group", g.group},
                  {"gpus", g.gpus},
                  {"nodes", g.nodes},
                  {"verdict", g.verdict},
                  {"left_out", g.left_out}};
    if (g.verdict == "tie") {
      json sides = json::array();
      for (const auto& [digest, gpus] : g.tie_sides) {
        sides.push_back({{"sha256", digest}, {"gpus", gpus}});
      }
      group["tie"] = {{"step", g.tie_step}, {"sides", sides}};
    }
    groups.push_back(std::move(group));
  }
  json minority = json::array();
  for (const auto& m : sdc.minority) {
    minority.push_back({{"node", m.node},
                        {"gpu", m.gpu},
                        {"uuid", m.uuid},
                        {"serial", m.serial},
                        {"group", m.group},
                        {"step", m.step},
                        {"found", m.found},
                        {"majority", m.majority},
                        {"majority_gpus", m.majority_gpus},
                        {"compared_gpus", m.compared_gpus}});
  }
  return {{"groups", groups}, {"minority", minority}};
}

} // namespace

json to_json(const FleetReport& report) {
  json nodes = json::array();
  for (const auto& node : report.nodes) {
    const auto row = report.matrix.find(node);
    const auto chain = report.chain.find(node);
    const auto health = report.health.find(node);
    const auto outcome = report.node_outcomes.find(node);
    nodes.push_back(
        {{"node", node},
         {"health", health == report.health.end() ? json(nullptr) : json(health->second)},
         {"outcome", to_string(outcome == report.node_outcomes.end() ? NodeOutcome::missing
                                                                     : outcome->second)},
         {"chain", chain == report.chain.end() ? json(nullptr) : json(chain->second)},
         {"checks", row == report.matrix.end() ? json::object() : json(row->second)}});
  }
  json failures = json::array();
  for (const auto& f : report.failures) {
    json failure = {{"node", f.node},
                    {"check", f.check},
                    {"expected", f.expected},
                    {"found", f.found},
                    {"reason", f.reason}};
    if (!f.drain.empty()) {
      failure["drain"] = f.drain;
    }
    failures.push_back(std::move(failure));
  }
  json outliers = json::array();
  for (const auto& o : report.outliers) {
    outliers.push_back({{"node", o.node},
                        {"check", o.check},
                        {"figure", o.figure},
                        {"unit", o.unit},
                        {"value", o.value},
                        {"against", o.against},
                        {"source", o.source}});
  }
  json missing = json::array();
  for (const auto& m : report.missing) {
    missing.push_back({{"node", m.node}, {"reason", m.reason}});
  }
  json not_verified = json::array();
  for (const auto& n : report.not_verified) {
    not_verified.push_back({{"node", n.node}, {"reason", n.reason}});
  }
  json out = {
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
      {"run", {{"job_id", report.run.job_id}, {"results", report.run.results}}},
  };
  if (!report.sdc.groups.empty()) {
    out["sdc"] = sdc_json(report.sdc);
  }
  return out;
}

namespace {

const std::vector<std::string>& check_outcomes() {
  static const std::vector<std::string> names = {"pass", "fail", "skip"};
  return names;
}

void read_node(FieldReader& n, FleetReport& report) {
  const std::string name = n.str("node");
  const std::string outcome =
      read_choice(n, "outcome", {"pass", "fail", "missing", "not_verified"});
  report.nodes.push_back(name);
  report.node_outcomes[name] = outcome == "pass"      ? NodeOutcome::pass
                               : outcome == "fail"    ? NodeOutcome::fail
                               : outcome == "missing" ? NodeOutcome::missing
                                                      : NodeOutcome::not_verified;
  if (const json* chain = n.any("chain"); chain == nullptr || !chain->is_null()) {
    report.chain[name] = read_choice(n, "chain", check_outcomes());
  }
  // Absent in reports written before envlock judged health; null for a node without it.
  if (const json* health = n.any("health"); health != nullptr && !health->is_null()) {
    report.health[name] = read_choice(n, "health", {"pass", "warn", "fail", "skip"});
  }
  FieldReader checks = n.sub("checks");
  auto& row = report.matrix[name];
  if (const json* all = n.object("checks"); all != nullptr) {
    for (const auto& [id, value] : all->items()) {
      row[id] = read_choice(checks, id.c_str(), check_outcomes());
    }
  }
  n.merge(checks);
  if (row.empty()) {
    report.matrix.erase(name);
  }
}

// Each item of the array at `key`, read by `read` into `out`.
template <class T, class F>
void read_list(FieldReader& r, const char* key, std::vector<T>& out, F read,
               Presence presence = Presence::required) {
  const json* list = r.array(key, presence);
  if (list == nullptr) {
    return;
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    FieldReader item = r.element(key, i, (*list)[i]);
    out.push_back(read(item));
    r.merge(item);
  }
}

void check_counts(FieldReader& r, const FleetReport& report) {
  const std::string outcome = read_choice(r, "outcome", {"pass", "fail"});
  FieldReader s = r.sub("summary");
  const std::pair<const char*, std::size_t> counts[] = {
      {"nodes", report.nodes.size()},
      {"passed", report.nodes_with(NodeOutcome::pass).size()},
      {"failed", report.nodes_with(NodeOutcome::fail).size()},
      {"missing", report.nodes_with(NodeOutcome::missing).size()},
      {"not_verified", report.nodes_with(NodeOutcome::not_verified).size()}};
  for (const auto& [key, counted] : counts) {
    const std::uint64_t written = s.uinteger(key);
    if (!s.error() && written != counted) {
      s.fail(s.join(key),
             std::to_string(written) + ", but the nodes count " + std::to_string(counted));
    }
  }
  r.merge(s);
  const std::string expected = report.passed() ? "pass" : "fail";
  if (!r.error() && outcome != expected) {
    r.fail("outcome", "'" + outcome + "', but the nodes give '" + expected + "'");
  }
}

} // namespace

template <>
Result<FleetReport> from_json<FleetReport>(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the fleet report");
  read_schema(r, k_fleet_report_schema);
  FleetReport report;
  report.image = r.str("image");
  report.image_digest = r.str("image_digest");
  report.lock_sha256 = r.str("lock_sha256");
  report.reference_node = r.str("reference_node");
  report.checks = r.strings("checks");
  if (const json* nodes = r.array("nodes"); nodes != nullptr) {
    for (std::size_t i = 0; i < nodes->size(); ++i) {
      FieldReader n = r.element("nodes", i, (*nodes)[i]);
      read_node(n, report);
      r.merge(n);
    }
  }
  read_list(r, "failures", report.failures, [](FieldReader& f) {
    return Failure{f.str("node"),  f.str("check"),  f.str("expected"),
                   f.str("found"), f.str("reason"), f.str("drain", Presence::optional)};
  });
  read_list(r, "outliers", report.outliers, [](FieldReader& o) {
    Outlier outlier;
    outlier.node = o.str("node");
    outlier.check = o.str("check");
    outlier.figure = o.str("figure");
    outlier.unit = o.str("unit");
    outlier.value = o.number("value");
    outlier.against = o.number("against");
    outlier.source = o.str("source");
    return outlier;
  });
  read_list(r, "missing", report.missing, [](FieldReader& m) {
    return Missing{m.str("node"), m.str("reason")};
  });
  read_list(
      r, "not_verified", report.not_verified,
      [](FieldReader& n) {
        return NotVerified{n.str("node"), n.str("reason")};
      },
      Presence::optional);
  if (r.any("sdc") != nullptr) {
    FieldReader sdc = r.sub("sdc");
    read_list(sdc, "groups", report.sdc.groups, [](FieldReader& g) {
      SdcGroup group;
      group.group = g.str("group");
      group.gpus = g.uinteger("gpus");
      group.nodes = g.uinteger("nodes");
      group.verdict = read_choice(g, "verdict", {"agree", "minority", "tie", "too_small"});
      group.left_out = g.strings("left_out");
      if (group.verdict == "tie") {
        FieldReader tie = g.sub("tie");
        group.tie_step = tie.uinteger("step");
        read_list(tie, "sides", group.tie_sides, [](FieldReader& side) {
          return std::pair<std::string, std::size_t>(side.str("sha256"), side.uinteger("gpus"));
        });
        g.merge(tie);
      }
      return group;
    });
    read_list(sdc, "minority", report.sdc.minority, [](FieldReader& m) {
      SdcMinority minority;
      minority.node = m.str("node");
      minority.gpu = m.integer("gpu");
      minority.uuid = m.str("uuid");
      minority.serial = m.str("serial");
      minority.group = m.str("group");
      minority.step = m.uinteger("step");
      minority.found = m.str("found");
      minority.majority = m.str("majority");
      minority.majority_gpus = m.uinteger("majority_gpus");
      minority.compared_gpus = m.uinteger("compared_gpus");
      return minority;
    });
    r.merge(sdc);
  }
  check_counts(r, report);
  FieldReader run = r.sub("run");
  report.run.job_id = run.str("job_id");
  report.run.results = run.str("results");
  r.merge(run);
  ENVLOCK_TRY(r.status());
  return report;
}

Result<FleetReport> read_fleet_report(const std::filesystem::path& path) {
  return read_record<FleetReport>(path);
}

Status write_fleet_report(const std::filesystem::path& path, const FleetReport& report) {
  return util::write_json_file(path, to_json(report));
}

} // namespace envlock::formats
