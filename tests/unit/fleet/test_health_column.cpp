// The nodes' health checks (`envlock node --check`'s health.* checks) in the fleet report: the
// health column, the failures' drain lines, the drain list's reason, and the JSON round trip.
#include "fleet/drain.hpp"
#include "fleet/fleet_report.hpp"
#include "formats/fleet_report.hpp"
#include "synthetic.hpp"

#include <doctest/doctest.h>

using nlohmann::json;
namespace formats = envlock::formats;
using formats::Outcome;

namespace {

formats::CheckResult health_check(const std::string& id, formats::Outcome outcome,
                                  const std::string& reason, const std::string& drain) {
  formats::CheckResult check;
  check.id = id;
  check.title = id;
  check.outcome = outcome;
  check.reason = reason;
  if (!drain.empty()) {
    check.details["drain"] = drain;
  }
  return check;
}

envlock::fleet::NodeInput node_with_health(const std::string& name,
                                           std::vector<formats::CheckResult> checks) {
  auto node = envlock::test::synthetic_node(name, {{"torch.version", "pass", "", "", "", {}}}, 0);
  node.host.emplace();
  node.host->checks = std::move(checks);
  return node;
}

} // namespace

TEST_SUITE("fleet.health") {
  TEST_CASE("host checks that reached the folder judge a node whose verifier left no report") {
    const std::string drain = "health.gpu.xid GPU 1: drain, reset the GPU";
    // The node was lost after its host step: only NODE.host.json reached the results folder.
    envlock::fleet::NodeInput failed;
    failed.node = "node1";
    failed.answered = true;
    failed.not_verified = "no result from the node; job 7 COMPLETED; node down*";
    failed.host.emplace();
    failed.host->checks = std::vector<formats::CheckResult>{
        health_check("health.gpu.xid", Outcome::fail, "GPU 1: Xid 79", drain)};
    envlock::fleet::NodeInput passed = failed;
    passed.node = "node2";
    passed.host->checks =
        std::vector<formats::CheckResult>{health_check("health.gpu.xid", Outcome::pass, "", "")};
    const auto report = envlock::fleet::aggregate({failed, passed}, {});
    CHECK(report.node_outcomes.at("node1") == envlock::fleet::NodeOutcome::fail);
    CHECK(report.health.at("node1") == "fail");
    REQUIRE(report.failures.size() == 1);
    CHECK(report.failures[0].drain == drain);
    // Passing host checks alone do not make a verdict: the image was never checked.
    CHECK(report.node_outcomes.at("node2") == envlock::fleet::NodeOutcome::not_verified);
    const auto verdicts = envlock::fleet::verdicts_from_report(report);
    REQUIRE(verdicts.size() == 1);
    CHECK(verdicts[0].node == "node1");
    CHECK(verdicts[0].reason == "envlock: " + drain);
    const auto back = formats::from_json<formats::FleetReport>(formats::to_json(report), "r.json");
    REQUIRE_MESSAGE(back.has_value(), back.error().message);
  }

  TEST_CASE("the health column folds each node's health checks; a failure drains with its line") {
    const std::string drain = "health.gpu.row_remap_pending GPU 3: drain, reset the GPU";
    auto plain =
        envlock::test::synthetic_node("node4", {{"torch.version", "pass", "", "", "", {}}}, 0);
    const auto report = envlock::fleet::aggregate(
        {node_with_health("node1", {health_check("health.gpu.xid", Outcome::pass, "", ""),
                                    health_check("health.ib.rate", Outcome::skip, "no port", "")}),
         node_with_health("node2", {health_check("health.gpu.persistence_off", Outcome::pass,
                                                 "warning: GPU 0: persistence mode is disabled; "
                                                 "enable persistence mode",
                                                 "")}),
         node_with_health("node3", {health_check("host.os", Outcome::pass, "", ""),
                                    health_check("health.gpu.row_remap_pending", Outcome::fail,
                                                 "GPU 3: a row remap is pending", drain)}),
         plain},
        {});
    CHECK(report.health == std::map<std::string, std::string>{
                               {"node1", "pass"}, {"node2", "warn"}, {"node3", "fail"}});
    REQUIRE(report.failures.size() == 1);
    CHECK(report.failures[0].drain == drain);
    const auto verdicts = envlock::fleet::verdicts_from_report(report);
    CHECK(verdicts[2].reason == "envlock: " + drain);
    CHECK(envlock::fleet::fleet_report_to_table(report).find("FAIL  node3  " + drain) !=
          std::string::npos);
    const std::string markdown = envlock::fleet::fleet_report_to_markdown(report);
    CHECK(markdown.find("| node3 | fail | skip | **FAIL** |") != std::string::npos);
    CHECK(markdown.find("| node4 | pass | skip | - |") != std::string::npos);

    const json written = formats::to_json(report);
    CHECK(written["nodes"][1]["health"] == "warn");
    CHECK(written["nodes"][3]["health"] == nullptr);
    CHECK(written["failures"][0]["drain"] == drain);
    const auto back = formats::from_json<formats::FleetReport>(written, "fleet-report.json");
    REQUIRE(back.has_value());
    CHECK(back->health == report.health);
    CHECK(back->failures[0].drain == drain);
    CHECK(formats::to_json(*back) == written);
  }
}
