// python.uv_lock.packages[].not_selected: read, written back only when true, and typed.
#include "../testutil.hpp"
#include "lock/lock.hpp"
#include "util/json.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

nlohmann::json not_selected_lock() {
  auto j = util::read_json_file(test::data_path("render/good_lock.json"));
  REQUIRE(j.has_value());
  return *j;
}

} // namespace

TEST_SUITE("lock.not_selected") {
  TEST_CASE("a package the lock's uv sync leaves out is marked, and the mark is written back") {
    nlohmann::json j = not_selected_lock();
    auto& package = j["python"]["uv_lock"]["packages"][0];
    CHECK_FALSE(package.contains("not_selected"));
    const auto plain = lock::from_json(j, "good_lock.json");
    REQUIRE(plain.has_value());
    CHECK_FALSE(plain->python.uv_lock.packages[0].not_selected);
    CHECK(lock::to_json(*plain)["python"]["uv_lock"] == j["python"]["uv_lock"]);
    package["not_selected"] = true;
    const auto marked = lock::from_json(j, "good_lock.json");
    REQUIRE(marked.has_value());
    CHECK(marked->python.uv_lock.packages[0].not_selected);
    CHECK(lock::to_json(*marked)["python"]["uv_lock"]["packages"][0]["not_selected"] == true);
  }

  TEST_CASE("not_selected must be a boolean") {
    nlohmann::json j = not_selected_lock();
    j["python"]["uv_lock"]["packages"][0]["not_selected"] = "yes";
    const auto bad = lock::from_json(j, "good_lock.json");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message ==
          "good_lock.json: python.uv_lock.packages[0].not_selected: must be true or false");
  }
}
