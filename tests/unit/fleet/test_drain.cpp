#include "fleet/drain.hpp"
#include "synthetic.hpp"

#include <doctest/doctest.h>

using envlock::fleet::drain_actions;
using envlock::fleet::NodeState;
using envlock::fleet::NodeVerdict;

TEST_SUITE("fleet.drain") {
  TEST_CASE("failed nodes are drained with the first failed check as the reason") {
    const std::vector<envlock::test::SyntheticCheck> checks = {
        {"torch.version", "fail", "2.13.0", "2.12.0", "", {}},
        {"nccl.version", "fail", "2.30.7", "2.28.9", "", {}}};
    const auto report =
        envlock::fleet::aggregate({envlock::test::synthetic_node("node3", checks, 1),
                                   envlock::test::missing_node("node4", "no report")},
                                  {});
    const auto verdicts = envlock::fleet::verdicts_from_report(report);
    REQUIRE(verdicts.size() == 2);
    CHECK(verdicts[0].reason == "envlock: torch.version failed (+1 more)");
    CHECK(verdicts[1].reason == "envlock: no report");
    const auto actions =
        drain_actions(verdicts, {{"node3", {"idle", ""}}, {"node4", {"down*", "Not responding"}}});
    REQUIRE(actions.size() == 2);
    CHECK(actions[0].line ==
          "scontrol update nodename=node3 state=drain reason=\"envlock: torch.version failed (+1 "
          "more)\"");
    CHECK(actions[0].argv.back() == "reason=envlock: torch.version failed (+1 more)");
  }

  TEST_CASE("only drains envlock set are resumed, and only once the node passed") {
    const std::vector<NodeVerdict> verdicts = {{"node1", true, ""},
                                               {"node2", true, ""},
                                               {"node3", false, "envlock: x failed"},
                                               {"node9", false, "envlock: y failed"}};
    const std::map<std::string, NodeState> states = {
        {"node1", {"drained", "envlock: torch.version failed"}},
        {"node2", {"drained", "bad fan"}},
        {"node3", {"draining", "envlock: x failed"}}};
    const auto actions = drain_actions(verdicts, states);
    REQUIRE(actions.size() == 1);
    CHECK(actions[0].line == "scontrol update nodename=node1 state=resume");
  }

  TEST_CASE("a node failing in any report fails in the merge") {
    const auto merged =
        envlock::fleet::merge_verdicts({{{"node10", true, ""}, {"node2", true, ""}},
                                        {{"node2", false, "envlock: image copy differs"}}});
    REQUIRE(merged.size() == 2);
    CHECK(merged[0].node == "node2");
    CHECK_FALSE(merged[0].passed);
    CHECK(merged[1].node == "node10");
  }
}
