#include "../testutil.hpp"
#include "oci/platform.hpp"
#include "util/json.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

nlohmann::json index_json() {
  auto doc = util::read_json_file(test::data_path("oci/good_index.json"));
  REQUIRE(doc);
  return *doc;
}

std::string pick(const std::string& platform) {
  auto wanted = oci::parse_platform(platform);
  REQUIRE(wanted);
  auto entry = oci::select_platform(index_json(), *wanted, "reg.example.invalid/app:v1");
  REQUIRE_MESSAGE(entry, (entry ? "" : entry.error().message));
  return entry->digest.substr(7, 1);
}

} // namespace

TEST_SUITE_BEGIN("oci");

TEST_CASE("oci::parse_platform") {
  auto p = oci::parse_platform("linux/arm64/v8");
  REQUIRE(p);
  CHECK(p->os == "linux");
  CHECK(p->architecture == "arm64");
  CHECK(p->variant == "v8");
  CHECK(p->to_string() == "linux/arm64/v8");
  for (const char* bad : {"linux", "linux/", "/amd64", "a/b/c/d", ""}) {
    auto r = oci::parse_platform(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().message ==
          "invalid platform '" + std::string(bad) + "': expected OS/ARCH[/VARIANT]");
  }
}

TEST_CASE("oci::select_platform") {
  CHECK(pick("linux/amd64") == "1");
  CHECK(pick("linux/arm64") == "2");
  CHECK(pick("linux/arm64/v8") == "2");
  CHECK(pick("linux/arm") == "3");
  CHECK(pick("linux/arm/v7") == "3");

  auto wanted = oci::parse_platform("linux/arm/v6");
  REQUIRE(wanted);
  auto none = oci::select_platform(index_json(), *wanted, "reg.example.invalid/app:v1");
  REQUIRE_FALSE(none);
  CHECK(none.error().code == ExitCode::usage);
  CHECK(none.error().message ==
        "no manifest for linux/arm/v6 in reg.example.invalid/app:v1 (available: linux/amd64, "
        "linux/arm64/v8, linux/arm/v7, unknown/unknown)");

  auto empty = oci::select_platform(nlohmann::json::object(), *wanted, "x");
  REQUIRE_FALSE(empty);
  CHECK(empty.error().message == "image index of x has no \"manifests\" list");
}

TEST_CASE("oci::platform_matches: arm64 without a variant is v8") {
  CHECK(oci::platform_matches({"linux", "arm64", "v8"}, {"linux", "arm64", ""}));
  CHECK_FALSE(oci::platform_matches({"linux", "arm", "v7"}, {"linux", "arm", "v6"}));
  CHECK_FALSE(oci::platform_matches({"linux", "amd64", ""}, {"windows", "amd64", ""}));
}

TEST_SUITE_END();
