#include "../testutil.hpp"
#include "build/builder.hpp"
#include "build/builder_auth.hpp"
#include "util/base64.hpp"
#include "util/fs.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <doctest/doctest.h>
#include <filesystem>
#include <string>
#include <vector>

using namespace envlock;
namespace fs = std::filesystem;

TEST_SUITE_BEGIN("builder");

TEST_CASE("builder credentials: envlock's for each registry of the build, none for the rest") {
  const util::TempDir dir = test::temp_dir("envlock-auth");
  const std::string pair = util::base64_encode("ci:s3cret");
  REQUIRE(
      util::write_file_atomic(dir.path() / "config.json",
                              R"({"auths": {"reg.invalid:5000": {"auth": ")" + pair + R"("}}})"));
  const oci::CredentialFiles files{dir.path() / "config.json", dir.path() / "no-netrc"};
  const auto json =
      build::builder_auth_json(files, {"reg.invalid:5000", "other.invalid", "reg.invalid:5000"});
  REQUIRE(json.has_value());
  REQUIRE(json->has_value());
  CHECK(nlohmann::json::parse(**json) ==
        nlohmann::json{{"auths", {{"reg.invalid:5000", {{"auth", pair}}}}}});
  const auto none = build::builder_auth_json(files, {"other.invalid", ""});
  REQUIRE(none.has_value());
  CHECK_FALSE(none->has_value());

  const util::TempDir out = test::temp_dir("envlock-auth-out");
  const auto written = build::write_builder_auth(files, {"reg.invalid:5000"}, out.path());
  REQUIRE(written.has_value());
  REQUIRE(written->has_value());
  CHECK(**written == out.path() / "config.json");
  CHECK((fs::status(**written).permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write));
  CHECK(util::read_file(**written).value() == **json);
}

TEST_CASE("builder credentials: buildah and podman get --authfile for the build and the push") {
  build::BuildCommand command;
  command.context_dir = "/w/ctx";
  command.image = "reg.invalid:5000/x/y:v1";
  command.id_file = "/w/iid";
  command.auth_file = "/w/auth/config.json";
  const auto argv = build::build_argv(command);
  const auto at = std::find(argv.begin(), argv.end(), "--authfile");
  REQUIRE(at != argv.end());
  CHECK(*(at + 1) == "/w/auth/config.json");
  CHECK(build::push_argv(command, "/w/d") ==
        std::vector<std::string>{"buildah", "push", "--digestfile", "/w/d", "--authfile",
                                 "/w/auth/config.json", "reg.invalid:5000/x/y:v1",
                                 "docker://reg.invalid:5000/x/y:v1"});
  command.kind = build::BuilderKind::docker;
  const auto docker = build::build_argv(command);
  CHECK(std::find(docker.begin(), docker.end(), "--authfile") == docker.end());
}

TEST_SUITE_END();
