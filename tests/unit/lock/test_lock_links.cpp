// The lock's expect.links: read typed, unknown keys and bad numbers refused naming the entry,
// written back as declared, and left out of locks that declare none.
#include "../testutil.hpp"
#include "lock/lock.hpp"
#include "util/json.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

nlohmann::json lock_without_links() {
  auto j = util::read_json_file(test::data_path("render/good_lock.json"));
  REQUIRE(j.has_value());
  return *j;
}

std::string links_error(const nlohmann::json& links) {
  nlohmann::json j = lock_without_links();
  j["expect"]["links"] = links;
  const auto read = lock::from_json(j, "l.json");
  REQUIRE_FALSE(read.has_value());
  CHECK(read.error().code == ExitCode::usage);
  return read.error().message;
}

} // namespace

TEST_SUITE("lock.links") {
  TEST_CASE("a lock without expect.links reads as none and keeps its bytes") {
    const nlohmann::json j = lock_without_links();
    REQUIRE_FALSE(j["expect"].contains("links"));
    const auto l = lock::from_json(j, "good_lock.json");
    REQUIRE(l.has_value());
    CHECK(l->expect.links.empty());
    CHECK(lock::to_json(*l)["expect"] == j["expect"]);
  }

  TEST_CASE("expect.links is read by model and written back as declared") {
    nlohmann::json j = lock_without_links();
    j["expect"]["links"] = nlohmann::json::parse(
        R"({"NVIDIA H200": {"peer_gbps": 300, "host_to_device_gbps": 40.5,
            "device_to_host_gbps": 41}, "NVIDIA B200": {}})");
    const auto l = lock::from_json(j, "l.json");
    REQUIRE_MESSAGE(l.has_value(), l.error().message);
    REQUIRE(l->expect.links.size() == 2);
    const lock::LinkMinimums& h200 = l->expect.links.at("NVIDIA H200");
    CHECK(h200.peer_gbps == lock::DeclaredNumber{300, true});
    CHECK(h200.host_to_device_gbps == lock::DeclaredNumber{40.5, false});
    CHECK(h200.device_to_host_gbps == lock::DeclaredNumber{41, true});
    CHECK(l->expect.links.at("NVIDIA B200") == lock::LinkMinimums{});
    CHECK(lock::to_json(*l)["expect"]["links"] == j["expect"]["links"]);
    CHECK(util::canonical_json(lock::to_json(*l)).find("\"peer_gbps\": 300\n") !=
          std::string::npos);
  }

  TEST_CASE("a bad expect.links is refused naming the entry") {
    CHECK(links_error(nlohmann::json::parse(R"({"NVIDIA H200": {"peer_gbs": 300}})")) ==
          "l.json: expect.links.NVIDIA H200: unknown key 'peer_gbs'; did you mean 'peer_gbps'?");
    CHECK(links_error(nlohmann::json::parse(R"({"NVIDIA H200": {"speed": 300}})")) ==
          "l.json: expect.links.NVIDIA H200: unknown key 'speed'");
    CHECK(links_error(nlohmann::json::parse(R"({"NVIDIA H200": {"peer_gbps": 0}})")) ==
          "l.json: expect.links.NVIDIA H200.peer_gbps: expected a number > 0 (GB/s)");
    CHECK(links_error(nlohmann::json::parse(R"({"NVIDIA H200": {"peer_gbps": "300"}})")) ==
          "l.json: expect.links.NVIDIA H200.peer_gbps: expected a number > 0 (GB/s)");
    CHECK(links_error(nlohmann::json::parse(R"({"NVIDIA H200": 300})")) ==
          "l.json: expect.links.NVIDIA H200: expected a mapping of peer_gbps, "
          "host_to_device_gbps, device_to_host_gbps");
    CHECK(links_error(nlohmann::json::array()) == "l.json: expect.links: must be an object");
  }
}
