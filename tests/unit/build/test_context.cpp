#include "../testutil.hpp"
#include "build/context_plan.hpp"
#include "build/context_tar.hpp"
#include "context_fixture.hpp"
#include "squashfs/archive_reader.hpp"
#include "util/sha256.hpp"

#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace envlock;

namespace {

struct TarItem {
  std::string path;
  unsigned type = 0;
  unsigned perm = 0;
  std::int64_t uid = -1, gid = -1, mtime = -1;
  std::string uname, gname, link, data;
};

// Reads a tar back with libarchive, entry by entry.
std::vector<TarItem> read_tar(const std::string& bytes) {
  auto reader = squashfs::new_tar_reader();
  REQUIRE(reader.has_value());
  struct archive* a = reader->get();
  REQUIRE(archive_read_open_memory(a, bytes.data(), bytes.size()) == ARCHIVE_OK);
  std::vector<TarItem> items;
  archive_entry* e = nullptr;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    TarItem item;
    item.path = archive_entry_pathname(e);
    item.type = archive_entry_filetype(e);
    item.perm = archive_entry_perm(e);
    item.uid = archive_entry_uid(e);
    item.gid = archive_entry_gid(e);
    item.mtime = archive_entry_mtime(e);
    item.uname = archive_entry_uname(e) != nullptr ? archive_entry_uname(e) : "";
    item.gname = archive_entry_gname(e) != nullptr ? archive_entry_gname(e) : "";
    item.link = archive_entry_symlink(e) != nullptr ? archive_entry_symlink(e) : "";
    std::string data(static_cast<std::size_t>(archive_entry_size(e)), '\0');
    if (!data.empty()) {
      REQUIRE(archive_read_data(a, data.data(), data.size()) ==
              static_cast<la_ssize_t>(data.size()));
    }
    item.data = std::move(data);
    items.push_back(std::move(item));
  }
  return items;
}

build::ContextPlan plan_of(const test::ContextFixture& f,
                           const build::ContextOptions& options = {}) {
  auto plan = build::plan_context(f.lock, f.lock_path, "FROM scratch\n", options);
  REQUIRE_MESSAGE(plan.has_value(), (plan ? "" : plan.error().message));
  return *plan;
}

std::pair<std::string, build::ContextTar> tar_of(const build::ContextPlan& plan) {
  std::string bytes;
  auto tar = build::write_context_tar(plan, [&](std::string_view data) -> Status {
    bytes.append(data);
    return {};
  });
  REQUIRE_MESSAGE(tar.has_value(), (tar ? "" : tar.error().message));
  return {bytes, *tar};
}

std::string error_of(const test::ContextFixture& f, ExitCode code,
                     const build::ContextOptions& options = {}) {
  auto plan = build::plan_context(f.lock, f.lock_path, "FROM scratch\n", options);
  REQUIRE(!plan.has_value());
  CHECK(plan.error().code == code);
  return plan.error().message;
}

} // namespace

TEST_SUITE_BEGIN("context");

TEST_CASE("the context holds the Dockerfile, the python files and the tree, sorted, with parents") {
  const test::ContextFixture f;
  const auto items = read_tar(tar_of(plan_of(f)).first);
  std::vector<std::string> paths;
  for (const auto& item : items) {
    paths.push_back(item.path);
  }
  const std::string dir = std::string(60, 'd');
  CHECK(paths == std::vector<std::string>{"Dockerfile", "megatron-lm/", "megatron-lm/README.md",
                                          "megatron-lm/" + dir + "/", "megatron-lm/" + f.long_path,
                                          "megatron-lm/tools/", "megatron-lm/tools/readme",
                                          "megatron-lm/tools/run.sh", "python/",
                                          "python/pyproject.toml", "python/uv.lock"});
}

TEST_CASE("entries carry git's modes, uid/gid 0, no names and the lock's mtime") {
  const test::ContextFixture f;
  for (const auto& item : read_tar(tar_of(plan_of(f)).first)) {
    CAPTURE(item.path);
    CHECK(item.uid == 0);
    CHECK(item.gid == 0);
    CHECK(item.uname.empty());
    CHECK(item.gname.empty());
    CHECK(item.mtime == 1700000000);
    if (item.path == "megatron-lm/tools/run.sh") {
      CHECK(item.perm == 0755);
      CHECK(item.data == "#!/bin/sh\necho run\n");
    } else if (item.path == "megatron-lm/tools/readme") {
      CHECK(item.type == AE_IFLNK);
      CHECK(item.link == "../README.md");
    } else if (item.path.ends_with("/")) {
      CHECK(item.type == AE_IFDIR);
      CHECK(item.perm == 0755);
    } else {
      CHECK(item.type == AE_IFREG);
      CHECK(item.perm == 0644);
    }
  }
}

TEST_CASE("the same lock gives the same bytes, and the summary hashes exactly them") {
  const test::ContextFixture f;
  const auto [first, summary] = tar_of(plan_of(f));
  const auto [second, again] = tar_of(plan_of(f));
  CHECK(first == second);
  CHECK(summary.sha256 == util::sha256_hex(first));
  CHECK(summary.size == first.size());
  CHECK(summary.entries == 11);
  CHECK(first.size() % 10240 == 0);
}

TEST_CASE("a different source_date_epoch changes the bytes") {
  test::ContextFixture f;
  const auto first = tar_of(plan_of(f)).second.sha256;
  f.lock.enroot.source_date_epoch = 1700000001;
  CHECK(tar_of(plan_of(f)).second.sha256 != first);
}

TEST_CASE("write_context_file writes the same bytes atomically") {
  const test::ContextFixture f;
  const auto plan = plan_of(f);
  const auto path = f.dir.path() / "context.tar";
  auto written = build::write_context_file(plan, path);
  REQUIRE(written.has_value());
  auto hash = util::sha256_file_hex(path);
  REQUIRE(hash.has_value());
  CHECK(*hash == written->sha256);
  CHECK(*hash == tar_of(plan).second.sha256);
}

TEST_CASE("a python file changed since locking fails the check, naming both hashes") {
  const test::ContextFixture f;
  test::write_text(f.dir.path() / "uv.lock", "version = 2\n");
  CHECK(error_of(f, ExitCode::failed) ==
        "uv.lock has changed since it was locked (sha256 " + util::sha256_hex("version = 2\n") +
            ", the lock has " + util::sha256_hex("version = 1\n") + "); run 'envlock lock'");
}

TEST_CASE("a remote Megatron-LM needs --megatron-repo") {
  test::ContextFixture f;
  f.lock.sources["megatron"].git = "https://user:tok@git.example.invalid/megatron.git";
  CHECK(error_of(f, ExitCode::usage) ==
        "sources.megatron: https://git.example.invalid/megatron.git is a remote repository; pass "
        "--megatron-repo DIR, a local clone that holds commit " +
            f.commit);
  build::ContextOptions options;
  options.megatron_repo = f.dir.path() / "megatron";
  CHECK(plan_of(f, options).entries.size() == 11);
}

TEST_CASE("a lock without sources.megatron is refused") {
  test::ContextFixture f;
  f.lock.sources.clear();
  CHECK(error_of(f, ExitCode::usage) == f.lock_path.string() +
                                            ": sources.megatron: missing; the build context "
                                            "needs Megatron-LM");
}

TEST_CASE("build.context files recorded in the lock go under files/, checked") {
  test::ContextFixture f;
  test::write_text(f.dir.path() / "conf/train.yaml", "lr: 1\n");
  f.lock.context = std::vector<lock::ContextFile>{{"conf/train.yaml", util::sha256_hex("lr: 1\n")}};
  bool found = false;
  for (const auto& item : read_tar(tar_of(plan_of(f)).first)) {
    found = found || (item.path == "files/conf/train.yaml" && item.data == "lr: 1\n");
  }
  CHECK(found);
  test::write_text(f.dir.path() / "conf/train.yaml", "lr: 2\n");
  CHECK(
      error_of(f, ExitCode::failed).starts_with("conf/train.yaml has changed since it was locked"));
}

TEST_CASE("complete_and_sort adds each parent once and sorts by path") {
  std::vector<build::ContextEntry> entries{{"b/c/d", build::EntryKind::file, 0644, "", ""},
                                           {"a", build::EntryKind::file, 0644, "", ""},
                                           {"b/e", build::EntryKind::file, 0644, "", ""}};
  build::complete_and_sort(entries);
  std::vector<std::string> paths;
  for (const auto& e : entries) {
    paths.push_back(e.path);
  }
  CHECK(paths == std::vector<std::string>{"a", "b", "b/c", "b/c/d", "b/e"});
  CHECK(entries[1].kind == build::EntryKind::directory);
}

TEST_SUITE_END();
