#include "build/builder.hpp"
#include "formats/build_result.hpp"
#include "util/clock.hpp"
#include "util/json.hpp"

#include <algorithm>
#include <chrono>
#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace envlock;

TEST_SUITE_BEGIN("builder");

TEST_CASE("buildah bud: chroot isolation, the lock's timestamp, build args sorted") {
  build::BuildCommand command;
  command.context_dir = "/w/ctx";
  command.image = "127.0.0.1:5000/x/y:v1";
  command.build_args = {{"B", "2"}, {"A", "1 2"}};
  command.source_date_epoch = 1700000000;
  command.tls = build::TlsVerify::off;
  command.id_file = "/w/iid";
  CHECK(build::build_argv(command) ==
        std::vector<std::string>{
            "buildah", "bud", "--isolation", "chroot", "--timestamp", "1700000000", "--file",
            "/w/ctx/Dockerfile", "--tag", "127.0.0.1:5000/x/y:v1", "--iidfile", "/w/iid",
            "--tls-verify=false", "--build-arg", "A=1 2", "--build-arg", "B=2", "/w/ctx"});
  CHECK(build::push_argv(command, "/w/d") ==
        std::vector<std::string>{"buildah", "push", "--digestfile", "/w/d", "--tls-verify=false",
                                 "127.0.0.1:5000/x/y:v1", "docker://127.0.0.1:5000/x/y:v1"});
}

TEST_CASE("podman builds without layers; docker pushes during the build") {
  build::BuildCommand command;
  command.kind = build::BuilderKind::podman;
  command.context_dir = "/c";
  CHECK(build::build_argv(command)[1] == "build");
  CHECK(build::build_argv(command).back() == "/c");
  const auto podman = build::build_argv(command);
  CHECK(std::find(podman.begin(), podman.end(), "--layers=false") != podman.end());
  command.kind = build::BuilderKind::docker;
  command.push = build::Push::yes;
  const auto docker = build::build_argv(command);
  CHECK(docker[1] == "buildx");
  CHECK(std::find(docker.begin(), docker.end(), "--push") != docker.end());
  CHECK(std::find(docker.begin(), docker.end(), "SOURCE_DATE_EPOCH=0") != docker.end());
  CHECK(build::push_argv(command, "/d").empty());
}

TEST_CASE("parse_builder names what it accepts") {
  CHECK(*build::parse_builder("podman") == build::BuilderKind::podman);
  const auto bad = build::parse_builder("kaniko");
  REQUIRE(!bad.has_value());
  CHECK(bad.error().code == ExitCode::usage);
  CHECK(bad.error().message == "unknown builder 'kaniko'; expected buildah, docker or podman");
}

TEST_CASE("builder versions and digest files") {
  CHECK(build::parse_builder_version(
            "buildah version 1.28.2 (image-spec 1.0.2-dev, runtime-spec 1.0.2-dev)\n") == "1.28.2");
  CHECK(build::parse_builder_version("Docker version 24.0.5, build ced0996\n") == "24.0.5");
  CHECK(build::parse_builder_version("podman version 4.3.1\n") == "4.3.1");
  CHECK(build::parse_builder_version("nothing here\n").empty());
  const std::string hex(64, 'c');
  CHECK(build::parse_digest_file("sha256:" + hex + "\n") == "sha256:" + hex);
  CHECK(build::parse_digest_file(hex) == "sha256:" + hex);
  CHECK(build::parse_digest_file("sha256:short").empty());
}

TEST_CASE("build-result.json: exactly the agreed keys, canonical") {
  formats::BuildResult result;
  result.repository = "127.0.0.1:5000/x/y";
  result.tag = "v1";
  result.digest = "sha256:" + std::string(64, 'd');
  result.pushed = true;
  result.builder_name = "buildah";
  result.builder_version = "1.28.2";
  result.build_args = {{"A", "1"}};
  result.source_date_epoch = 7;
  result.log_path = "build.log";
  const auto json = formats::to_json(result);
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items()) {
    keys.push_back(key);
  }
  CHECK(keys == std::vector<std::string>{"build_args", "builder", "context_sha256",
                                         "dockerfile_sha256", "finished_at", "image", "lock_sha256",
                                         "log", "pushed", "schema", "source_date_epoch",
                                         "started_at"});
  CHECK(json["schema"] == "envlock.build-result/v1");
  CHECK(json["image"]["reference"] == "127.0.0.1:5000/x/y@sha256:" + std::string(64, 'd'));
  CHECK(json["image"].size() == 4);
  CHECK(json["log"]["path"] == "build.log");
  CHECK(util::rfc3339_utc(std::chrono::system_clock::from_time_t(1700000000)) ==
        "2023-11-14T22:13:20Z");
}

TEST_SUITE_END();
