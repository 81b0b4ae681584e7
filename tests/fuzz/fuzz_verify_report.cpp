// Verification reports as the fleet reads them from its nodes: the bytes become one node's report
// (beside a well-formed reference node), are aggregated, and printed as JSON, Markdown and the
// terminal table; the fleet report's JSON reads back. Nothing may crash on any report.
#include "fleet/fleet_report.hpp"
#include "util/json.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

using namespace envlock;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto report = util::parse_json(text, "node2.json");
  if (!report) {
    return 0;
  }
  std::vector<fleet::NodeInput> nodes(2);
  nodes[0].node = "node1";
  nodes[0].reported = true;
  nodes[0].exit_code = 0;
  nodes[0].report = {
      {"schema", "envlock.report/v1"}, {"outcome", "pass"}, {"checks", nlohmann::json::array()}};
  nodes[1].node = "node2";
  nodes[1].reported = true;
  nodes[1].exit_code = 1;
  nodes[1].report = std::move(*report);
  fleet::AggregateOptions options;
  options.image = "app.sqsh";
  const fleet::FleetReport fleet = fleet::aggregate(std::move(nodes), options);
  const nlohmann::json json = fleet::fleet_report_to_json(fleet);
  (void)fleet::fleet_report_to_markdown(fleet);
  (void)fleet::fleet_report_to_table(fleet);
  if (!fleet::fleet_report_from_json(json)) {
    std::abort(); // the fleet's own report must read back
  }
  return 0;
}
