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
    const auto report = envlock::fleet::check_copies(hashes, good);
    REQUIRE(report.nodes.size() == 4);
    CHECK(report.nodes[0].outcome == "pass");
    CHECK(report.nodes[1].outcome == "fail");
    CHECK(report.nodes[1].reason == "sha256 " + bad + " differs from the recorded " + good);
    CHECK(report.nodes[2].reason == "sha256sum: /local/image.sqsh: No such file or directory");
    CHECK(report.nodes[3].outcome == "missing");
    CHECK_FALSE(report.passed());
    const auto back = envlock::formats::from_json<envlock::formats::DistributeReport>(
        envlock::formats::to_json(report), "d.json");
    REQUIRE_MESSAGE(back.has_value(), back.error().message);
    const auto verdicts = envlock::fleet::verdicts_from_distribute(*back);
    CHECK(verdicts[1].reason == "envlock: image copy differs");
    CHECK(verdicts[3].reason == "envlock: image copy missing");
  }
}
