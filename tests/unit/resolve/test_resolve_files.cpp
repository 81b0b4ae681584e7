// The files a lock hashes are read only when they are regular files: a link to /dev/zero or to a
// FIFO is refused at once (naming what it is), and uv.lock's limit applies before a byte is read.
#include "resolve/drift.hpp"
#include "resolve/resolve.hpp"
#include "resolve_project.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

using namespace envlock;

namespace {

namespace fs = std::filesystem;

void replace_by_link(const fs::path& path, const fs::path& target) {
  fs::remove(path);
  fs::create_directories(path.parent_path());
  fs::create_symlink(target, path);
}

void replace_by_fifo(const fs::path& path) {
  fs::remove(path);
  fs::create_directories(path.parent_path());
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
}

std::string lock_error(const test::Project& p) {
  const auto lock = resolve::resolve_lock(p.manifest, p.dir / "l.json", test::registry_answers());
  REQUIRE_FALSE(lock.has_value());
  CHECK(lock.error().code == ExitCode::usage);
  return lock.error().message;
}

} // namespace

TEST_SUITE("lock") {

  TEST_CASE("hostile files: uv.lock a link to /dev/zero is refused, not read") {
    test::Project p;
    replace_by_link(p.dir / "py/uv.lock", "/dev/zero");
    CHECK(lock_error(p) ==
          "python.project: cannot read py/uv.lock: is a character device, not a regular file");
  }

  TEST_CASE("hostile files: uv.lock a FIFO is refused, not opened") {
    test::Project p;
    replace_by_fifo(p.dir / "py/uv.lock");
    CHECK(lock_error(p) == "python.project: cannot read py/uv.lock: is a FIFO, not a regular file");
  }

  TEST_CASE("hostile files: a uv.lock over 64 MiB is refused before it is hashed") {
    test::Project p;
    // Sparse: no block is written, and a reader would take seconds to hash it.
    fs::resize_file(p.dir / "py/uv.lock", (std::uintmax_t{64} << 20U) + 1);
    CHECK(lock_error(p) == "python.project: cannot read py/uv.lock: larger than 64 MiB");
  }

  TEST_CASE("hostile files: pyproject.toml a link to /dev/urandom or a FIFO") {
    test::Project p;
    replace_by_link(p.dir / "py/pyproject.toml", "/dev/urandom");
    CHECK(lock_error(p) == "python.project: cannot read py/pyproject.toml: is a character device, "
                           "not a regular file");
    replace_by_fifo(p.dir / "py/pyproject.toml");
    CHECK(lock_error(p) ==
          "python.project: cannot read py/pyproject.toml: is a FIFO, not a regular file");
  }

  TEST_CASE("hostile files: a training file a FIFO or a link to /dev/zero") {
    test::Project p;
    replace_by_fifo(p.dir / "conf/train.yaml");
    p.manifest.training = manifest::Training{"conf/train.yaml", std::nullopt, std::nullopt, ""};
    CHECK(lock_error(p) == "training.config: cannot read conf/train.yaml: is a FIFO, not a regular "
                           "file");
    test::write_text(p.dir / "data/x.idx", "index");
    replace_by_link(p.dir / "data/x.bin", "/dev/zero");
    p.manifest.training = manifest::Training{std::nullopt, std::nullopt, "data/x", ""};
    CHECK(lock_error(p) == "training.data: cannot read data/x.bin: is a character device, not a "
                           "regular file");
  }

  TEST_CASE("hostile files: lock --check names a training file that became a FIFO") {
    test::Project p;
    test::write_text(p.dir / "conf/train.yaml", "layers: 24\n");
    p.manifest.training = manifest::Training{"conf/train.yaml", std::nullopt, std::nullopt, ""};
    const auto path = p.dir / "envlock.lock.json";
    const auto lock = resolve::resolve_lock(p.manifest, path, test::registry_answers());
    REQUIRE_MESSAGE(lock.has_value(), lock.error().message);
    replace_by_fifo(p.dir / "conf/train.yaml");
    const auto drift =
        resolve::find_drift(p.manifest, *lock, path, resolve::Refresh::local_only, {});
    REQUIRE_MESSAGE(drift.has_value(), drift.error().message);
    REQUIRE(drift->size() == 1);
    CHECK(drift->front() == "drift: training.config conf/train.yaml: cannot read (is a FIFO, not a "
                            "regular file), the lock has " +
                                util::sha256_hex("layers: 24\n") + " (11 bytes)");
  }

  TEST_CASE("hostile files: a context file a FIFO or a link to /dev/zero") {
    test::Project p;
    replace_by_fifo(p.dir / "ctx/pipe");
    replace_by_link(p.dir / "ctx/zero", "/dev/zero");
    p.manifest.build.context = std::vector<std::string>{"ctx/pipe"};
    CHECK(resolve::hash_context_files(p.manifest).error().message ==
          "build.context: cannot read ctx/pipe: is a FIFO, not a regular file");
    p.manifest.build.context = std::vector<std::string>{"ctx/zero"};
    CHECK(resolve::hash_context_files(p.manifest).error().message ==
          "build.context: cannot read ctx/zero: is a character device, not a regular file");
  }
}
