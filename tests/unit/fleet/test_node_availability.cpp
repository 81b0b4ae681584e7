#include "../testutil.hpp"
#include "fleet/drain.hpp"
#include "fleet/fleet_report.hpp"
#include "fleet/node_availability.hpp"
#include "fleet/node_results.hpp"
#include "fleet/verify_run.hpp"
#include "synthetic.hpp"
#include "util/fs.hpp"

#include <chrono>
#include <doctest/doctest.h>
#include <filesystem>

using envlock::fleet::NodeOutcome;
using envlock::fleet::NodeState;
using envlock::fleet::unavailable_because;

namespace {

std::string why(const std::string& state, const std::string& reason = "",
                bool in_reservation = false) {
  return unavailable_because(NodeState{state, reason}, in_reservation).value_or("usable");
}

envlock::fleet::NodeInput not_verified(const std::string& node, const std::string& reason) {
  envlock::fleet::NodeInput input;
  input.node = node;
  input.not_verified = reason;
  return input;
}

} // namespace

TEST_SUITE("fleet.node_availability") {
  TEST_CASE("which states a job may wait for") {
    for (const char* state : {"idle", "mixed", "allocated", "completing", "idle-"}) {
      CHECK(why(state) == "usable");
    }
    CHECK(why("drained", "maintenance") == "drained (maintenance)");
    CHECK(why("draining", "bad fan") == "draining (bad fan)");
    CHECK(why("down", "power supply") == "down (power supply)");
    CHECK(why("down*", "Not responding") == "down* (Not responding)");
    CHECK(why("idle*") == "idle* (not responding)");
    CHECK(why("idle~") == "idle~");
    CHECK(why("maint") == "maint");
    CHECK(why("fail", "disk") == "fail (disk)");
    CHECK(why("unknown") == "unknown");
    CHECK(why("reserved") == "reserved");
    CHECK(why("reserved", "", true) == "usable");
  }

  TEST_CASE("splitting a node list keeps the usable nodes in order") {
    const auto split = envlock::fleet::split_by_state({"node1", "node2", "node3", "node4", "node9"},
                                                      {{"node1", {"idle", ""}},
                                                       {"node2", {"drained", "maintenance"}},
                                                       {"node3", {"allocated", ""}},
                                                       {"node4", {"down", "power supply"}}},
                                                      false);
    CHECK(split.usable == std::vector<std::string>{"node1", "node3", "node9"});
    CHECK(split.not_waited_for.size() == 2);
    CHECK(split.not_waited_for.at("node4").reason == "power supply");
  }

  TEST_CASE("nodes not verified: in the report, the table, the JSON, and not on the drain list") {
    const auto report = envlock::fleet::aggregate(
        {envlock::test::synthetic_node("node1", {{"torch.version", "pass", "", "", "", {}}}, 0),
         not_verified("node2", "drained (maintenance)"),
         not_verified("node4", "job 9 pending for more than 3 s (Resources); cancelled")},
        {});
    CHECK(!report.passed());
    CHECK(report.node_outcomes.at("node2") == NodeOutcome::not_verified);
    const std::string table = envlock::fleet::fleet_report_to_table(report);
    CHECK(table.find("SKIP  node2  not verified: drained (maintenance)\n") != std::string::npos);
    CHECK(table.find("1 passed, 0 failed, 0 missing, 2 not verified of 3 nodes\n") !=
          std::string::npos);
    const auto json = envlock::formats::to_json(report);
    CHECK(json["summary"]["not_verified"] == 2);
    CHECK(json["nodes"][1]["outcome"] == "not_verified");
    CHECK(json["not_verified"][1]["reason"] ==
          "job 9 pending for more than 3 s (Resources); cancelled");
    const auto back =
        envlock::formats::from_json<envlock::formats::FleetReport>(json, "fleet-report.json");
    REQUIRE(back.has_value());
    CHECK(back->not_verified.size() == 2);
    CHECK(back->node_outcomes.at("node4") == NodeOutcome::not_verified);
    const auto verdicts = envlock::fleet::verdicts_from_report(*back);
    REQUIRE(verdicts.size() == 1);
    CHECK(verdicts[0].node == "node1");
    CHECK(envlock::fleet::fleet_report_to_markdown(report).find(
              "## Nodes not verified\n\n| node | why |\n| --- | --- |\n| node2 | drained "
              "(maintenance) |\n") != std::string::npos);
  }

  TEST_CASE("a report written before not_verified existed still reads") {
    auto json = envlock::formats::to_json(envlock::fleet::aggregate(
        {envlock::test::synthetic_node("node1", {{"x", "pass", "", "", "", {}}}, 0)}, {}));
    json.erase("not_verified");
    const auto back =
        envlock::formats::from_json<envlock::formats::FleetReport>(json, "fleet-report.json");
    REQUIRE(back.has_value());
    CHECK(back->passed());
  }

  TEST_CASE("the not-verified file is folded again by --report-only") {
    const auto tmp = envlock::test::temp_dir();
    REQUIRE(
        envlock::fleet::write_not_verified(tmp.path(), "node2", "down (power supply)").has_value());
    const auto inputs = envlock::fleet::read_node_results(tmp.path(), {"node1", "node2"});
    // node1 left nothing: it did not answer, so it is not verified (never judged for it).
    CHECK(inputs[0].not_verified.value_or("") == "no result from the node");
    CHECK_FALSE(inputs[0].answered);
    CHECK(inputs[1].not_verified.value_or("") == "down (power supply)");
  }

  TEST_CASE("a node that answered without a report is missing; one that left nothing is not") {
    const auto tmp = envlock::test::temp_dir();
    std::filesystem::create_directories(tmp.path() / "nodes");
    REQUIRE(envlock::util::write_file_atomic(tmp.path() / "nodes" / "node1.rc", "3\n").has_value());
    auto inputs = envlock::fleet::read_node_results(tmp.path(), {"node1", "node2", "node3"});
    CHECK(inputs[0].answered);
    CHECK_FALSE(inputs[0].not_verified.has_value());
    CHECK(inputs[0].problem == "envlock-verify exited 3 without a report");
    const auto report = envlock::fleet::aggregate(std::move(inputs), {});
    CHECK(report.node_outcomes.at("node1") == envlock::fleet::NodeOutcome::missing);
    CHECK(report.node_outcomes.at("node2") == envlock::fleet::NodeOutcome::not_verified);
    // The drain list names only the node with a verdict: node1 (its verifier failed).
    const auto verdicts = envlock::fleet::verdicts_from_report(report);
    REQUIRE(verdicts.size() == 1);
    CHECK(verdicts[0].node == "node1");
    CHECK_FALSE(verdicts[0].passed);
  }

  TEST_CASE("the deadline of a wait covers every wave of steps at its limit") {
    using std::chrono::seconds;
    // 640 nodes, 64 at a time: 10 waves; a 90 s limit is 2 minutes, plus one to end it.
    CHECK(envlock::fleet::default_deadline(640, {64, 90}, seconds(600), 1) ==
          seconds(600 + 10 * 180 + 120));
    CHECK(envlock::fleet::default_deadline(65, {64, 60}, seconds(0), 2) ==
          seconds(2 * 2 * 120 + 120));
    CHECK(envlock::fleet::default_deadline(1, {64, 0}, seconds(0), 1) ==
          seconds(envlock::fleet::k_unlimited_step_seconds + 120));
  }

  TEST_CASE("the prolog's and the health check's drains are envlock's, resumed once passed") {
    const auto actions = envlock::fleet::drain_actions(
        {{"node1", true, ""}, {"node2", true, ""}, {"node3", true, ""}},
        {{"node1", {"drained", "envlock: prolog: host.os failed"}},
         {"node2", {"drained", "envlock: healthcheck: gpu.count failed (+1 more)"}},
         {"node3", {"drained", "Prolog error"}}});
    REQUIRE(actions.size() == 2);
    CHECK(actions[0].line == "scontrol update nodename=node1 state=resume");
    CHECK(actions[1].line == "scontrol update nodename=node2 state=resume");
  }
}
