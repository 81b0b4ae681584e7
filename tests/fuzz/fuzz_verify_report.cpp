// Verification reports as the fleet reads them from its nodes: the bytes are read by the report's
// reader (formats/report.hpp); a report it accepts must write back to what it reads again, and,
// as one node's report beside a well-formed reference node, is aggregated and printed as JSON,
// Markdown and the terminal table; the fleet report's JSON reads back. Nothing may crash on any
// bytes.
#include "fleet/fleet_report.hpp"
#include "formats/fleet_report.hpp"
#include "formats/report.hpp"
#include "util/json.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

using namespace envlock;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto value = util::parse_json(text, "node2.json");
  if (!value) {
    return 0;
  }
  auto report = formats::from_json<formats::Report>(*value, "node2.json");
  if (!report) {
    return 0;
  }
  const nlohmann::json written = formats::to_json(*report);
  const auto again = formats::from_json<formats::Report>(written, "node2.json");
  if (!again || formats::to_json(*again) != written) {
    std::abort(); // what the writer writes, the reader reads back
  }
  std::vector<fleet::NodeInput> nodes(2);
  nodes[0].node = "node1";
  nodes[0].reported = true;
  nodes[0].exit_code = 0;
  nodes[1].node = "node2";
  nodes[1].reported = true;
  nodes[1].exit_code = 1;
  nodes[1].report = std::move(*report);
  fleet::AggregateOptions options;
  options.image = "app.sqsh";
  const fleet::FleetReport fleet = fleet::aggregate(std::move(nodes), options);
  const nlohmann::json json = formats::to_json(fleet);
  (void)fleet::fleet_report_to_markdown(fleet);
  (void)fleet::fleet_report_to_table(fleet);
  if (!formats::from_json<formats::FleetReport>(json, "fleet-report.json")) {
    std::abort(); // the fleet's own report must read back
  }
  return 0;
}
