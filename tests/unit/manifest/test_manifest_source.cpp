// The manifest as a source of quoted lines: only a regular file inside its project is read, and
// no line holding a secret is ever shown.
#include "manifest/source_file.hpp"
#include "manifest/source_text.hpp"
#include "manifest_testutil.hpp"

#include <filesystem>
#include <sys/stat.h>

using namespace envlock;
namespace fs = std::filesystem;

TEST_SUITE_BEGIN("manifest");

namespace {

const char* const k_secret_manifest =
    "envlock: 1\nimage: {name: app, tag: v1}\nsecret: S3cret-pw-42\n";

} // namespace

TEST_CASE("manifest source: a line holding a secret is not shown, the message is scrubbed") {
  util::SecretValues secrets;
  secrets.add("S3cret-pw-42");
  const manifest::SourceText source(k_secret_manifest, "envlock.yaml", secrets);
  CHECK(source.error_at({2, 8}, "unknown key 'S3cret-pw-42'").message ==
        "envlock.yaml:3:9: unknown key '***'\n(line not shown: it holds a password or token)");
  CHECK(source.error_at({1, 0}, "x").message ==
        "envlock.yaml:2:1: x\nimage: {name: app, tag: v1}\n^");
  CHECK(source.error_at({}, "got S3cret-pw-42").message == "envlock.yaml: got ***");
}

TEST_CASE("manifest source: a manifest with a secret in a bad line keeps it out of the error") {
  util::SecretValues secrets;
  secrets.add("S3cret-pw-42");
  const auto parsed = manifest::parse_manifest(k_secret_manifest, "envlock.yaml", secrets);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().message.find("S3cret") == std::string::npos);
  CHECK(parsed.error().message.find("(line not shown: it holds a password or token)") !=
        std::string::npos);
}

TEST_CASE("manifest source: links are followed only inside the project") {
  const auto dir = test::temp_dir();
  const fs::path project = dir.path() / "project";
  fs::create_directories(project / ".git");
  fs::create_directories(project / "sub");
  test::write_text(project / "configs" / "envlock.yaml", k_secret_manifest);
  test::write_text(dir.path() / "outside.json", "{\"auths\": {}}\n");
  fs::create_symlink("../configs/envlock.yaml", project / "sub" / "envlock.yaml");
  fs::create_symlink(dir.path() / "outside.json", project / "envlock.yaml");
  CHECK(manifest::project_folder(project / "sub" / "envlock.yaml") == project);

  const auto inside = manifest::read_source_file(project / "sub" / "envlock.yaml", 1 << 20,
                                                 manifest::LinkRule::inside_project);
  REQUIRE(inside);
  CHECK(*inside == k_secret_manifest);

  const auto outside = manifest::read_source_file(project / "envlock.yaml", 1 << 20,
                                                  manifest::LinkRule::inside_project);
  REQUIRE_FALSE(outside);
  CHECK(outside.error().code == ExitCode::usage);
  CHECK(outside.error().message == (project / "envlock.yaml").string() +
                                       ": a symbolic link leading outside the project (to " +
                                       (dir.path() / "outside.json").string() +
                                       "); a manifest must be a file inside " + project.string());
  // An administrator's file may be a link anywhere.
  CHECK(
      manifest::read_source_file(project / "envlock.yaml", 1 << 20, manifest::LinkRule::anywhere));
}

TEST_CASE("manifest source: without a git work tree the project is the manifest's folder") {
  const auto dir = test::temp_dir();
  test::write_text(dir.path() / "a" / "envlock.yaml", k_secret_manifest);
  fs::create_directories(dir.path() / "b");
  fs::create_symlink("../a/envlock.yaml", dir.path() / "b" / "envlock.yaml");
  const auto result = manifest::read_source_file(dir.path() / "b" / "envlock.yaml", 1 << 20,
                                                 manifest::LinkRule::inside_project);
  REQUIRE_FALSE(result);
  CHECK(result.error().message.find("a symbolic link leading outside the project (to "
                                    "../a/envlock.yaml)") != std::string::npos);
}

TEST_CASE("manifest source: a FIFO or a device is refused before it is read") {
  const auto dir = test::temp_dir();
  const fs::path fifo = dir.path() / "envlock.yaml";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto result = manifest::read_source_file(fifo, 1 << 20, manifest::LinkRule::anywhere);
  REQUIRE_FALSE(result);
  CHECK(result.error().message == fifo.string() + ": is a FIFO, not a regular file");
  const fs::path zero = dir.path() / "zero.yaml";
  fs::create_symlink("/dev/zero", zero);
  const auto device = manifest::read_source_file(zero, 1 << 20, manifest::LinkRule::anywhere);
  REQUIRE_FALSE(device);
  CHECK(device.error().message == zero.string() + ": is a character device, not a regular file");
}

TEST_SUITE_END();
