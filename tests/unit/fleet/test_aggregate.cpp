#include "fleet/fleet_report.hpp"
#include "synthetic.hpp"

#include <doctest/doctest.h>

using envlock::fleet::aggregate;
using envlock::fleet::AggregateOptions;
using envlock::fleet::NodeOutcome;
using envlock::test::missing_node;
using envlock::test::synthetic_node;

namespace {

std::vector<envlock::test::SyntheticCheck> good(double bandwidth) {
  return {{"torch.version", "pass", "2.13.0", "2.13.0", "", {}},
          {"gpu.model", "pass", "NVIDIA H200", "NVIDIA H200", "", {}},
          {"gpu.0.bandwidth", "pass", "", "", "", {{"copy_bandwidth", bandwidth, "TB/s"}}}};
}

std::vector<envlock::fleet::NodeInput> four_nodes() {
  auto bad = good(3.9);
  bad[0] = {"torch.version", "fail", "2.13.0", "2.12.0", "torch 2.12.0 differs", {}};
  return {synthetic_node("node10", good(4.0), 0), synthetic_node("node2", bad, 1),
          synthetic_node("node1", good(4.0), 0), missing_node("node3", "no report")};
}

} // namespace

TEST_SUITE("fleet.aggregate") {
  TEST_CASE("all nodes passing give a passing report in natural node order") {
    const auto report =
        aggregate({synthetic_node("node2", good(4.0), 0), synthetic_node("node1", good(4.1), 0)},
                  AggregateOptions{});
    CHECK(report.passed());
    CHECK(report.nodes == std::vector<std::string>{"node1", "node2"});
    CHECK(report.reference_node == "node1");
    CHECK(report.checks ==
          std::vector<std::string>{"torch.version", "gpu.model", "gpu.0.bandwidth"});
    CHECK(report.matrix.at("node2").at("torch.version") == "pass");
  }

  TEST_CASE("a failed check is listed with its node and values; a missing node with its reason") {
    const auto report = aggregate(four_nodes(), AggregateOptions{});
    CHECK_FALSE(report.passed());
    CHECK(report.nodes == std::vector<std::string>{"node1", "node2", "node3", "node10"});
    REQUIRE(report.failures.size() == 1);
    CHECK(report.failures[0].node == "node2");
    CHECK(report.failures[0].check == "torch.version");
    CHECK(report.failures[0].expected == "2.13.0");
    CHECK(report.failures[0].found == "2.12.0");
    REQUIRE(report.missing.size() == 1);
    CHECK(report.missing[0].node == "node3");
    CHECK(report.node_outcomes.at("node3") == NodeOutcome::missing);
    CHECK(report.nodes_with(NodeOutcome::pass) == std::vector<std::string>{"node1", "node10"});
    CHECK(report.matrix.at("node2").at("torch.version") == "fail");
  }

  TEST_CASE("the chain column: each report's lock and image against the fleet's, never guessed") {
    const std::string lock(64, 'a');
    const std::string sqsh(64, 'b');
    auto same = synthetic_node("node1", good(4.0), 0);
    same.report.lock_sha256 = lock;
    same.report.sqsh_sha256 = sqsh;
    auto other_lock = synthetic_node("node2", good(4.0), 0);
    other_lock.report.lock_sha256 = std::string(64, 'c');
    other_lock.report.sqsh_sha256 = sqsh;
    auto other_image = synthetic_node("node3", good(4.0), 0);
    other_image.report.lock_sha256 = lock;
    other_image.report.sqsh_sha256 = std::string(64, 'd');
    auto unnamed = synthetic_node("node4", good(4.0), 0);
    unnamed.report.sqsh_sha256 = std::nullopt;
    AggregateOptions options;
    options.image = "train.sqsh";
    options.image_digest = "sha256:" + sqsh;
    options.lock_sha256 = lock;
    const auto report = aggregate(
        {same, other_lock, other_image, unnamed, missing_node("node5", "no report")}, options);
    CHECK(report.chain.at("node1") == "pass");
    CHECK(report.chain.at("node2") == "fail");
    CHECK(report.chain.at("node3") == "fail");
    CHECK(report.chain.at("node4") == "skip");
    CHECK(report.chain.count("node5") == 0);
    CHECK(report.node_outcomes.at("node4") == NodeOutcome::pass);
    REQUIRE(report.failures.size() == 2);
    CHECK(report.failures[0].node == "node2");
    CHECK(report.failures[0].check == "chain");
    CHECK(report.failures[0].found == std::string(64, 'c'));
    CHECK(report.failures[0].reason ==
          "the report's lock_sha256 is not the fleet's: the node checked another lock");
    CHECK(report.failures[1].expected == "sha256:" + sqsh);
    CHECK(report.failures[1].found == "sha256:" + std::string(64, 'd'));
    CHECK(report.failures[1].reason ==
          "the report's sqsh_sha256 is not the fleet's: the node checked another image");
    const auto back = envlock::formats::from_json<envlock::formats::FleetReport>(
        envlock::formats::to_json(report), "fleet-report.json");
    REQUIRE(back.has_value());
    CHECK(back->chain == report.chain);
  }

  TEST_CASE("a figure more than the tolerance below the reference node's is an outlier") {
    AggregateOptions options;
    options.reference = "node2";
    const auto report =
        aggregate({synthetic_node("node1", good(3.5), 0), synthetic_node("node2", good(4.0), 0),
                   synthetic_node("node3", good(3.7), 0)},
                  options);
    REQUIRE(report.outliers.size() == 1);
    CHECK(report.outliers[0].node == "node1");
    CHECK(report.outliers[0].figure == "copy_bandwidth");
    CHECK(report.outliers[0].against == doctest::Approx(4.0));
    CHECK(report.outliers[0].source == "reference node2");
    CHECK(report.node_outcomes.at("node1") == NodeOutcome::fail);
    CHECK(report.node_outcomes.at("node3") == NodeOutcome::pass);
  }

  TEST_CASE("busbw is held to the lock's threshold for the node's GPU model") {
    auto checks = good(4.0);
    checks.push_back({"nccl.busbw", "pass", "", "", "", {{"busbw_1GiB", 280.0, "GB/s"}}});
    auto faster = checks;
    std::get<1>(faster.back().figures[0]) = 400.0;
    AggregateOptions options;
    options.busbw_thresholds = {{"NVIDIA H200", 300.0}};
    const auto report = aggregate(
        {synthetic_node("node1", faster, 0), synthetic_node("node2", checks, 0)}, options);
    REQUIRE(report.outliers.size() == 1);
    CHECK(report.outliers[0].node == "node2");
    CHECK(report.outliers[0].source == "threshold expect.nccl_busbw_gbps[NVIDIA H200]");
  }

  TEST_CASE("a verifier that exits non-zero without a failed check fails its node") {
    const auto report = aggregate({synthetic_node("node1", good(4.0), 3)}, AggregateOptions{});
    REQUIRE(report.failures.size() == 1);
    CHECK(report.failures[0].check == "verifier");
    CHECK(report.failures[0].found == "exit 3");
  }

  TEST_CASE("the JSON form reads back to the same report") {
    const auto report = aggregate(four_nodes(), AggregateOptions{});
    const auto json = envlock::formats::to_json(report);
    CHECK(json["summary"]["failed"] == 1);
    CHECK(json["summary"]["missing"] == 1);
    const auto back =
        envlock::formats::from_json<envlock::formats::FleetReport>(json, "fleet-report.json");
    REQUIRE(back.has_value());
    CHECK(envlock::formats::to_json(*back) == json);
    const auto other = envlock::formats::from_json<envlock::formats::FleetReport>(
        {{"schema", "other"}}, "fleet-report.json");
    REQUIRE_FALSE(other.has_value());
    CHECK(other.error().message ==
          "fleet-report.json: schema: 'other' is not envlock.fleet-report/v1");
  }
}
