#include "../testutil.hpp"
#include "fleet/fleet_report.hpp"
#include "synthetic.hpp"

#include <doctest/doctest.h>

using envlock::test::missing_node;
using envlock::test::synthetic_node;

namespace {

envlock::fleet::FleetReport sample() {
  const std::vector<envlock::test::SyntheticCheck> good = {
      {"torch.version", "pass", "2.13.0", "2.13.0", "", {}},
      {"gpu.0.bandwidth", "pass", "", "", "", {{"copy_bandwidth", 4.0, "TB/s"}}}};
  auto bad = good;
  bad[0] = {"torch.version", "fail", "2.13.0", "2.12.0", "torch 2.12.0 | not 2.13.0", {}};
  auto slow = good;
  slow[1].figures = {{"copy_bandwidth", 3.0, "TB/s"}};
  envlock::fleet::AggregateOptions options;
  options.image = "train.sqsh";
  options.image_digest = "sha256:abc";
  options.lock_sha256 = "def";
  return envlock::fleet::aggregate(
      {synthetic_node("node1", good, 0), synthetic_node("node2", slow, 0),
       synthetic_node("node3", bad, 1), missing_node("node4", "no report; job 7 COMPLETED")},
      options);
}

} // namespace

TEST_SUITE("fleet.report_text") {
  TEST_CASE("the terminal table names each node's problems") {
    CHECK(envlock::fleet::fleet_report_to_table(sample()) ==
          "      node   problems\n"
          "PASS  node1\n"
          "FAIL  node2  gpu.0.bandwidth copy_bandwidth 3.00 TB/s < 4.00 (reference node1)\n"
          "FAIL  node3  torch.version (expected 2.13.0, found 2.12.0)\n"
          "MISS  node4  no report: no report; job 7 COMPLETED\n"
          "1 passed, 2 failed, 1 missing of 4 nodes\n");
  }

  TEST_CASE("the Markdown report matches the golden file") {
    const auto golden =
        envlock::util::read_file(envlock::test::data_path("fleet/golden_report.md"));
    REQUIRE(golden.has_value());
    CHECK(envlock::fleet::fleet_report_to_markdown(sample()) == *golden);
  }
}
