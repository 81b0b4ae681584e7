#include "../testutil.hpp"
#include "fleet/rollout_plan.hpp"

#include <doctest/doctest.h>

using envlock::fleet::plan_batches;
using envlock::fleet::RolloutState;

TEST_SUITE("fleet.rollout_state") {
  TEST_CASE("batches: the reference first, the last size repeating") {
    const std::vector<std::string> nodes = {"node4", "node10", "node2", "node1", "node3"};
    CHECK(plan_batches(nodes, "node3", {1, 1, 2}) ==
          std::vector<std::vector<std::string>>{
              {"node3"}, {"node1"}, {"node2", "node4"}, {"node10"}});
    CHECK(plan_batches(nodes, "", {2}) == std::vector<std::vector<std::string>>{
                                              {"node1", "node2"}, {"node3", "node4"}, {"node10"}});
  }

  TEST_CASE("bad batch sizes are refused") {
    const auto sizes = envlock::fleet::parse_batch_sizes("1,x");
    REQUIRE_FALSE(sizes.has_value());
    CHECK(sizes.error().message ==
          "--batches: expected positive numbers separated by commas, e.g. 1,8,64: '1,x'");
    CHECK(envlock::fleet::parse_batch_sizes("1, 8,64").value() ==
          std::vector<std::size_t>{1, 8, 64});
  }

  TEST_CASE("the next batch is the first not passed with this image; the file round-trips") {
    RolloutState state;
    state.image = "train.sqsh";
    state.image_digest = "sha256:new";
    state.lock_sha256 = "abc";
    state.batches = {{"node1"}, {"node2"}, {"node3", "node4"}};
    state.nodes["node1"] = {"passed", "sha256:new", 1, "ro/batch-1"};
    state.nodes["node2"] = {"passed", "sha256:old", 2, "ro/batch-2"};
    CHECK(state.next_batch() == 1);
    state.nodes["node2"] = {"passed", "sha256:new", 2, "ro/batch-2"};
    CHECK(state.next_batch() == 2);
    const envlock::util::TempDir dir = envlock::test::temp_dir();
    const auto path = dir.path() / "state.json";
    REQUIRE(envlock::formats::write_rollout_state(path, state).has_value());
    const auto back = envlock::formats::read_rollout_state(path);
    REQUIRE(back.has_value());
    CHECK(envlock::formats::to_json(*back) == envlock::formats::to_json(state));
    CHECK(envlock::formats::to_json(state)["next_batch"] == 3);
  }
}
