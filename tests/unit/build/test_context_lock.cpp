#include "../testutil.hpp"
#include "manifest/manifest.hpp"
#include "resolve/resolve.hpp"
#include "util/fs.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

// The demo manifest with `context:` added to its build section, parsed from `dir`.
Result<manifest::Manifest> demo_with_context(const util::TempDir& dir, const std::string& list) {
  auto text =
      util::read_file(std::filesystem::path(ENVLOCK_SOURCE_DIR) / "examples/demo/envlock.yaml");
  REQUIRE(text.has_value());
  const std::string changed =
      util::replace_all(*text, "build:\n  args:", "build:\n  context: " + list + "\n  args:");
  return manifest::parse_manifest(changed, dir.path() / "envlock.yaml");
}

} // namespace

TEST_SUITE_BEGIN("context");

TEST_CASE("lock: build.context files are recorded with their sha256, in order") {
  const util::TempDir dir = test::temp_dir();
  test::write_text(dir.path() / "conf/b.yaml", "b\n");
  test::write_text(dir.path() / "a.txt", "a\n");
  auto manifest = demo_with_context(dir, "[conf/./b.yaml, a.txt]");
  REQUIRE_MESSAGE(manifest.has_value(), (manifest ? "" : manifest.error().message));
  auto files = resolve::hash_context_files(*manifest);
  REQUIRE(files.has_value());
  CHECK(*files == std::vector<lock::ContextFile>{{"conf/b.yaml", util::sha256_hex("b\n")},
                                                 {"a.txt", util::sha256_hex("a\n")}});
}

TEST_CASE("lock: build.context outside the manifest's folder or missing is refused") {
  const util::TempDir dir = test::temp_dir();
  auto outside = demo_with_context(dir, "[../secret]");
  REQUIRE(outside.has_value());
  auto error = resolve::hash_context_files(*outside);
  REQUIRE(!error.has_value());
  CHECK(error.error().message ==
        "build.context: '../secret' must be a relative path inside the manifest's folder");
  auto missing = demo_with_context(dir, "[nothing.txt]");
  REQUIRE(missing.has_value());
  CHECK(resolve::hash_context_files(*missing).error().message ==
        "build.context: cannot read nothing.txt: No such file or directory");
}

TEST_CASE("lock: no build.context, nothing recorded") {
  const util::TempDir dir = test::temp_dir();
  auto text =
      util::read_file(std::filesystem::path(ENVLOCK_SOURCE_DIR) / "examples/demo/envlock.yaml");
  REQUIRE(text.has_value());
  auto manifest = manifest::parse_manifest(*text, dir.path() / "envlock.yaml");
  REQUIRE(manifest.has_value());
  CHECK_FALSE(resolve::hash_context_files(*manifest)->has_value());
}

TEST_CASE("lock: the manifest's upstream recipe, checked where it is written") {
  const util::TempDir dir = test::temp_dir();
  auto text =
      util::read_file(std::filesystem::path(ENVLOCK_SOURCE_DIR) / "examples/demo/envlock.yaml");
  REQUIRE(text.has_value());
  const auto with_recipe = [&](const std::string& recipe) {
    return util::replace_all(*text, "build:\n  args:", "build:\n  recipe: " + recipe + "\n  args:");
  };
  auto manifest = manifest::parse_manifest(
      with_recipe("{upstream: megatron, path: docker/Dockerfile.ci.dev, target: main}"),
      dir.path() / "envlock.yaml");
  REQUIRE(manifest.has_value());
  const auto recipe = resolve::manifest_recipe(*manifest);
  REQUIRE(recipe.has_value());
  CHECK(recipe->upstream == "megatron");
  CHECK(recipe->path == "docker/Dockerfile.ci.dev");
  CHECK(recipe->target == "main");

  auto plain = manifest::parse_manifest(*text, dir.path() / "envlock.yaml");
  REQUIRE(plain.has_value());
  CHECK_FALSE(resolve::manifest_recipe(*plain).has_value());

  const lock::Lock no_sources;
  const auto read = resolve::read_manifest_recipe(*manifest, *recipe, no_sources, std::nullopt);
  REQUIRE_FALSE(read.has_value());
  CHECK(read.error().message == "build.recipe: upstream 'megatron' needs sources.megatron");

  auto other = manifest::parse_manifest(
      with_recipe("{upstream: nemo, path: Dockerfile, target: main}"), dir.path() / "envlock.yaml");
  REQUIRE_FALSE(other.has_value());
  CAPTURE(other.error().message);
  CHECK(other.error().message.find(
            "envlock.yaml:31:22: build.recipe.upstream: the only upstream is 'megatron' "
            "(sources.megatron)\n") != std::string::npos);
  auto outside = manifest::parse_manifest(
      with_recipe("{upstream: megatron, path: ../Dockerfile, target: main}"),
      dir.path() / "envlock.yaml");
  REQUIRE_FALSE(outside.has_value());
  CAPTURE(outside.error().message);
  CHECK(outside.error().message.find(
            "envlock.yaml:31:38: build.recipe.path: '../Dockerfile' must be a relative path "
            "inside the repository\n") != std::string::npos);
  auto no_target = manifest::parse_manifest(with_recipe("{upstream: megatron, path: Dockerfile}"),
                                            dir.path() / "envlock.yaml");
  REQUIRE_FALSE(no_target.has_value());
  CAPTURE(no_target.error().message);
  CHECK(no_target.error().message.find("target") != std::string::npos);
}

TEST_SUITE_END();
