#include "formats/distribute_report.hpp"

#include <algorithm>

namespace envlock::formats {

using nlohmann::json;
using util::FieldReader;

bool DistributeReport::passed() const {
  return std::all_of(nodes.begin(), nodes.end(),
                     [](const NodeCopy& n) { return n.outcome == "pass"; });
}

json to_json(const DistributeReport& report) {
  json nodes = json::array();
  for (const auto& n : report.nodes) {
    nodes.push_back(
        {{"node", n.node}, {"outcome", n.outcome}, {"sha256", n.sha256}, {"reason", n.reason}});
  }
  return {{"schema", k_distribute_report_schema},
          {"file", report.file},
          {"dest", report.dest},
          {"expected_sha256", report.expected},
          {"outcome", report.passed() ? "pass" : "fail"},
          {"nodes", nodes},
          {"run", {{"job_id", report.job_id}, {"results", report.results}}}};
}

template <>
Result<DistributeReport> from_json<DistributeReport>(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the distribute report");
  read_schema(r, k_distribute_report_schema);
  DistributeReport report;
  report.file = r.str("file");
  report.dest = r.str("dest");
  report.expected = r.str("expected_sha256");
  check_sha256(r, "expected_sha256", report.expected);
  if (const json* nodes = r.array("nodes"); nodes != nullptr) {
    for (std::size_t i = 0; i < nodes->size(); ++i) {
      FieldReader n = r.element("nodes", i, (*nodes)[i]);
      NodeCopy copy;
      copy.node = n.str("node");
      copy.outcome = read_choice(n, "outcome", {"pass", "fail", "missing", "not_verified"});
      copy.sha256 = n.str("sha256");
      check_sha256(n, "sha256", copy.sha256, Empty::allowed);
      copy.reason = n.str("reason");
      r.merge(n);
      report.nodes.push_back(std::move(copy));
    }
  }
  const std::string outcome = read_choice(r, "outcome", {"pass", "fail"});
  const std::string expected = report.passed() ? "pass" : "fail";
  if (!r.error() && outcome != expected) {
    r.fail("outcome", "'" + outcome + "', but the nodes give '" + expected + "'");
  }
  FieldReader run = r.sub("run");
  report.job_id = run.str("job_id");
  report.results = run.str("results");
  r.merge(run);
  ENVLOCK_TRY(r.status());
  return report;
}

Result<DistributeReport> read_distribute_report(const std::filesystem::path& path) {
  return read_record<DistributeReport>(path);
}

Status write_distribute_report(const std::filesystem::path& path, const DistributeReport& report) {
  return util::write_json_file(path, to_json(report));
}

} // namespace envlock::formats
