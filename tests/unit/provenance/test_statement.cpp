#include "../testutil.hpp"
#include "provenance/inputs.hpp"
#include "provenance/statement.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

#include <doctest/doctest.h>
#include <filesystem>

namespace fs = std::filesystem;
namespace pv = envlock::provenance;
using envlock::ExitCode;
using envlock::test::data_path;

namespace {

const char* const k_files[] = {"envlock.yaml", "envlock.lock.json", "build-result.json",
                               "build.log", "squashfs-result.json"};

// A copy of tests/data/provenance in a fresh folder, to change.
void copy_data(const fs::path& to) {
  for (const char* name : k_files) {
    fs::copy_file(data_path("provenance") / name, to / name);
  }
}

pv::InputPaths data_inputs(const fs::path& dir) {
  return {dir / "envlock.lock.json", dir / "build-result.json", dir / "squashfs-result.json"};
}

std::string input_failure(const pv::InputPaths& paths) {
  auto result = pv::gather_inputs(paths, "0.1.0");
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().code == ExitCode::usage);
  return result.error().message;
}

} // namespace

TEST_SUITE_BEGIN("provenance");

TEST_CASE("provenance::make_statement matches the golden statement byte for byte") {
  auto gathered = pv::gather_inputs(data_inputs(data_path("provenance")), "0.1.0");
  REQUIRE(gathered.has_value());
  CHECK(gathered->warnings.empty());
  const std::string text = envlock::util::canonical_json(pv::make_statement(gathered->inputs));
  const auto golden = envlock::util::read_file(data_path("provenance/statement.json"));
  REQUIRE(golden.has_value());
  CHECK(text == *golden);
}

TEST_CASE("provenance::make_statement fields") {
  auto gathered = pv::gather_inputs(data_inputs(data_path("provenance")), "0.1.0");
  REQUIRE(gathered.has_value());
  const nlohmann::json s = pv::make_statement(gathered->inputs);
  CHECK(s["_type"] == "https://in-toto.io/Statement/v1");
  CHECK(s["predicateType"] == "https://slsa.dev/provenance/v1");
  CHECK(s["subject"][0] == nlohmann::json{{"name", "registry.example.invalid/ml/shan-training"},
                                          {"digest", {{"sha256", std::string(64, 'c')}}}});
  CHECK(s["subject"][1]["name"] == "shan-training.sqsh");
  const auto& deps = s["predicate"]["buildDefinition"]["resolvedDependencies"];
  std::vector<std::string> names;
  for (const auto& d : deps) {
    names.push_back(d["name"]);
  }
  CHECK(names == std::vector<std::string>{"base_image", "base_image.platform_digest",
                                          "sources.megatron", "recipe",
                                          "recipe.images[docker/Dockerfile.ci.dev:5]", "uv.lock",
                                          "pyproject.toml", "Dockerfile", "context.tar"});
  CHECK(deps[4]["digest"]["sha256"] == std::string(64, '5'));
  CHECK(deps[3]["annotations"]["gitCommit"] == "0123456789abcdef0123456789abcdef01234567");
  CHECK(deps[2]["digest"]["gitCommit"] == "0123456789abcdef0123456789abcdef01234567");
  CHECK(s["predicate"]["buildDefinition"]["externalParameters"]["manifest"]["image"]["tag"] ==
        "mc0.19.0-cu13.3");
  CHECK(s["predicate"]["runDetails"]["builder"]["version"]["buildah"] == "1.28.2");
}

TEST_CASE("provenance::gather_inputs without squashfs-result has one subject") {
  pv::InputPaths paths = data_inputs(data_path("provenance"));
  paths.squashfs_result.clear();
  auto gathered = pv::gather_inputs(paths, "0.1.0");
  REQUIRE(gathered.has_value());
  CHECK(pv::make_statement(gathered->inputs)["subject"].size() == 1);
}

TEST_CASE("provenance::gather_inputs refuses inputs that do not belong together") {
  const envlock::util::TempDir dir = envlock::test::temp_dir();
  copy_data(dir.path());
  const pv::InputPaths paths = data_inputs(dir.path());
  const fs::path result = dir.path() / "build-result.json";

  SUBCASE("no build result") {
    fs::remove(result);
    pv::InputPaths defaulted = paths;
    defaulted.build_result.clear();
    CHECK(input_failure(defaulted) ==
          result.string() +
              ": no such build result; run `envlock build` first or pass --build-result FILE");
  }
  SUBCASE("the manifest changed") {
    envlock::test::write_text(dir.path() / "envlock.yaml", "envlock: 1\n");
    CHECK(input_failure(paths).find("envlock.yaml: changed since " +
                                    (dir.path() / "envlock.lock.json").string() +
                                    " was written (sha256 ") != std::string::npos);
  }
  SUBCASE("another lock") {
    auto text = envlock::util::read_file(result).value();
    text.replace(text.find("\"lock_sha256\": \"") + 16, 1, "0");
    envlock::test::write_text(result, text);
    CHECK(input_failure(paths).find(": built from another lock (lock_sha256 0") !=
          std::string::npos);
  }
  SUBCASE("the build log changed") {
    const std::string recorded = envlock::util::sha256_file_hex(dir.path() / "build.log").value();
    envlock::test::write_text(dir.path() / "build.log", "edited\n");
    const std::string now = envlock::util::sha256_file_hex(dir.path() / "build.log").value();
    CHECK(input_failure(paths) ==
          (dir.path() / "build.log").string() + ": changed after the build that wrote " +
              (dir.path() / "build-result.json").string() + " (sha256 " + now +
              ", the result records " + recorded +
              "); restore that build's log, or run `envlock build` again for a new result and log");
  }
  SUBCASE("a .sqsh of another image") {
    auto text = envlock::util::read_file(dir.path() / "squashfs-result.json").value();
    text.replace(text.find("\"manifest_digest\": \"sha256:") + 27, 1, "d");
    envlock::test::write_text(dir.path() / "squashfs-result.json", text);
    CHECK(input_failure(paths) == (dir.path() / "squashfs-result.json").string() +
                                      ": the .sqsh was made from sha256:d" + std::string(63, 'c') +
                                      ", not from the built image sha256:" + std::string(64, 'c'));
  }
  SUBCASE("a malformed digest") {
    auto text = envlock::util::read_file(result).value();
    text.replace(text.find("\"digest\": \"sha256:"), 18, "\"digest\": \"sha512:");
    envlock::test::write_text(result, text);
    CHECK(input_failure(paths) ==
          result.string() +
              ": image.digest: must be sha256:<64 hex>, not 'sha512:" + std::string(64, 'c') + "'");
  }
}

TEST_SUITE_END();
