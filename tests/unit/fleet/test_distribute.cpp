#include "fleet/distribute.hpp"

#include <doctest/doctest.h>

TEST_SUITE("fleet.distribute") {
  TEST_CASE("each node's hash is compared with the recorded one") {
    const std::string good(64, 'a');
    const std::string bad(64, 'b');
    std::map<std::string, envlock::fleet::NodeHash> hashes;
    hashes["node1"] = {good + "  /local/image.sqsh\n", ""};
    hashes["node2"] = {bad + "  /local/image.sqsh\n", ""};
    hashes["node3"] = {"", "sha256sum: /local/image.sqsh: No such file or directory"};
    hashes["node4"] = {std::nullopt, ""};
    hashes["node5"] = {std::nullopt, "", false}; // it left nothing
    const auto report = envlock::fleet::check_copies(hashes, good);
    REQUIRE(report.nodes.size() == 5);
    CHECK(report.nodes[0].outcome == "pass");
    CHECK(report.nodes[1].outcome == "fail");
    CHECK(report.nodes[1].reason == "sha256 " + bad + " differs from the recorded " + good);
    CHECK(report.nodes[2].reason == "sha256sum: /local/image.sqsh: No such file or directory");
    CHECK(report.nodes[3].outcome == "fail");
    CHECK(report.nodes[3].reason == "sha256sum left no hash");
    CHECK(report.nodes[4].outcome == "not_verified");
    CHECK(report.nodes[4].reason == "no result from the node");
    CHECK_FALSE(report.passed());
    const auto back = envlock::formats::from_json<envlock::formats::DistributeReport>(
        envlock::formats::to_json(report), "d.json");
    REQUIRE_MESSAGE(back.has_value(), back.error().message);
    const auto verdicts = envlock::fleet::verdicts_from_distribute(*back);
    CHECK(verdicts[1].reason == "envlock: image copy differs");
    CHECK(verdicts[3].reason == "envlock: image copy differs");
    // A node that did not answer is never drained for it.
    REQUIRE(verdicts.size() == 4);
    CHECK(verdicts[3].node == "node4");
  }
}
