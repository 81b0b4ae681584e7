// The lock's enroot section: enroot.locale is read, defaulted and written back.
#include "../testutil.hpp"
#include "lock/lock.hpp"
#include "util/json.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

nlohmann::json enroot_good_lock() {
  auto j = util::read_json_file(test::data_path("render/good_lock.json"));
  REQUIRE(j.has_value());
  return *j;
}

} // namespace

TEST_SUITE("lock.enroot") {
  TEST_CASE("a lock without enroot.locale is C.UTF-8, and keeps its bytes") {
    const nlohmann::json j = enroot_good_lock();
    REQUIRE_FALSE(j["enroot"].contains("locale"));
    const auto l = lock::from_json(j, "good_lock.json");
    REQUIRE(l.has_value());
    CHECK(l->enroot.locale == lock::EnrootLocale::utf8);
    CHECK(lock::to_json(*l)["enroot"] == j["enroot"]);
  }

  TEST_CASE("enroot.locale C is read and written back") {
    nlohmann::json j = enroot_good_lock();
    j["enroot"]["locale"] = "C";
    const auto l = lock::from_json(j, "good_lock.json");
    REQUIRE(l.has_value());
    CHECK(l->enroot.locale == lock::EnrootLocale::c);
    CHECK(lock::to_json(*l)["enroot"]["locale"] == "C");
    j["enroot"]["locale"] = "C.UTF-8";
    CHECK(lock::from_json(j, "good_lock.json")->enroot.locale == lock::EnrootLocale::utf8);
  }

  TEST_CASE("another enroot.locale is refused, naming the field") {
    nlohmann::json j = enroot_good_lock();
    j["enroot"]["locale"] = "POSIX";
    const auto bad = lock::from_json(j, "good_lock.json");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message == "good_lock.json: enroot.locale: 'POSIX' is not one of C.UTF-8, C");
    j["enroot"]["locale"] = 1;
    CHECK(lock::from_json(j, "good_lock.json").error().message ==
          "good_lock.json: enroot.locale: must be a string");
  }
}
