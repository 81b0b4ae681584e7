#include "fleet/slurm.hpp"

#include <doctest/doctest.h>

TEST_SUITE("fleet.slurm") {
  TEST_CASE("reads the job state and reason from scontrol show job -o") {
    const auto state =
        envlock::fleet::parse_job_line("JobId=7 JobName=envlock-fleet-verify UserId=root(0) "
                                       "JobState=FAILED Reason=NonZeroExitCode "
                                       "Dependency=(null) NodeList=node[1-4]\n");
    CHECK(state.state == "FAILED");
    CHECK(state.reason == "NonZeroExitCode");
    CHECK_FALSE(envlock::fleet::job_finished({"RUNNING", "None"}));
    CHECK_FALSE(envlock::fleet::job_finished({"PENDING", "Resources"}));
    CHECK(envlock::fleet::job_finished(state));
  }

  TEST_CASE("reads node states and reasons from sinfo") {
    const auto states =
        envlock::fleet::parse_node_states("node1|idle|none\nnode3|drained|envlock: torch.version "
                                          "failed\nnode4|down*|Not responding\n");
    REQUIRE(states.size() == 3);
    CHECK(states.at("node1").state == "idle");
    CHECK(states.at("node1").reason.empty());
    CHECK(states.at("node3").state == "drained");
    CHECK(states.at("node3").reason == "envlock: torch.version failed");
    CHECK(states.at("node4").state == "down*");
  }
}
