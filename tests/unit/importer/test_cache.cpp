#include "../testutil.hpp"
#include "formats/image_record.hpp"
#include "importer/cache.hpp"
#include "importer/eviction.hpp"
#include "importer/file_lock.hpp"
#include "importer/holds.hpp"
#include "importer/stamp.hpp"
#include "util/sha256.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace envlock::importer;

namespace {

// An image of `size` bytes in the cache under `key`, with a record, last used `age` s ago.
void put_image(const Cache& cache, const std::string& key, std::size_t size, int age) {
  envlock::test::write_text(cache.image(key), std::string(size, 'x'));
  envlock::formats::ImageRecord record;
  record.sqsh_file = key + ".sqsh";
  record.sha256 = std::string(64, 'c');
  REQUIRE(envlock::formats::write_image_record(cache.record(key), record).has_value());
  const struct timespec times[2] = {{time(nullptr) - age, 0}, {time(nullptr) - age, 0}};
  REQUIRE(::utimensat(AT_FDCWD, cache.record(key).c_str(), times, 0) == 0);
}

} // namespace

TEST_SUITE("importer.cache") {
  TEST_CASE("the cache is a private folder per user") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    const auto cache = Cache::open(tmp.path(), ::getuid());
    REQUIRE(cache.has_value());
    CHECK(cache->dir() == tmp.path() / std::to_string(::getuid()));
    struct stat st {};
    REQUIRE(::stat(cache->dir().c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    REQUIRE(::chmod(cache->dir().c_str(), 0777) == 0);
    const auto planted = Cache::open(tmp.path(), ::getuid());
    REQUIRE(!planted.has_value());
    CHECK(planted.error().message ==
          cache->dir().string() + ": owned by uid " + std::to_string(::getuid()) +
              " with mode 0777; the cache of uid " + std::to_string(::getuid()) +
              " must be its own and writable by it alone");
    const auto missing = Cache::open(tmp.path() / "none", ::getuid());
    REQUIRE(!missing.has_value());
    CHECK(missing.error().code == envlock::ExitCode::environment);
  }

  TEST_CASE("keys name the manifest and the Enroot settings") {
    envlock::squashfs::SquashSettings settings;
    const std::string manifest = "sha256:" + std::string(64, 'd');
    const std::string key = cache_key(manifest, "linux/amd64", settings);
    CHECK(key.starts_with("sha256-" + std::string(64, 'd') + "-"));
    CHECK(key.size() == 7 + 64 + 1 + 12);
    settings.source_date_epoch = 1;
    CHECK(cache_key(manifest, "linux/amd64", settings) != key);
  }

  TEST_CASE("a stamp spares the hash until the file changes") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    const fs::path file = tmp.path() / "img.sqsh";
    const fs::path stamp = tmp.path() / "stamp.json";
    envlock::test::write_text(file, "image bytes");
    const auto first = verified_sha256(file, stamp);
    REQUIRE(first.has_value());
    CHECK(!first->from_stamp);
    CHECK(first->sha256 == envlock::util::sha256_hex("image bytes"));
    const auto second = verified_sha256(file, stamp);
    REQUIRE(second.has_value());
    CHECK(second->from_stamp);
    CHECK(second->sha256 == first->sha256);
    // Same size, same mtime set back: the ctime still tells.
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    {
      const int fd = ::open(file.c_str(), O_WRONLY);
      REQUIRE(fd >= 0);
      REQUIRE(::pwrite(fd, "I", 1, 0) == 1);
      ::close(fd);
    }
    const struct timespec times[2] = {st.st_atim, st.st_mtim};
    REQUIRE(::utimensat(AT_FDCWD, file.c_str(), times, 0) == 0);
    const auto third = verified_sha256(file, stamp);
    REQUIRE(third.has_value());
    CHECK(!third->from_stamp);
    CHECK(third->sha256 == envlock::util::sha256_hex("Image bytes"));
  }

  TEST_CASE("holds: get adds, release removes, twice is fine") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    const auto cache = Cache::open(tmp.path(), ::getuid());
    REQUIRE(cache.has_value());
    const JobStep step{"42", "0"};
    REQUIRE(add_hold(*cache, step, "k1").has_value());
    REQUIRE(add_hold(*cache, {"43", "0"}, "k1").has_value());
    CHECK(is_held(*cache, "k1", 3600));
    CHECK(!is_held(*cache, "k2", 3600));
    CHECK(release_holds(*cache, step) == 1);
    CHECK(release_holds(*cache, step) == 0);
    CHECK(is_held(*cache, "k1", 3600));
    CHECK(release_holds(*cache, {"43", "0"}) == 1);
    CHECK(!is_held(*cache, "k1", 3600));
    CHECK(release_holds(*cache, {"", "none"}) == 0);
  }

  TEST_CASE("eviction: least recently used first, never an image in use") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    const auto cache = Cache::open(tmp.path(), ::getuid());
    REQUIRE(cache.has_value());
    put_image(*cache, "old", 100, 300);
    put_image(*cache, "held", 100, 200);
    put_image(*cache, "locked", 100, 150);
    put_image(*cache, "recent", 100, 100);
    put_image(*cache, "new", 100, 0);
    REQUIRE(add_hold(*cache, {"7", "0"}, "held").has_value());
    const auto lock = FileLock::try_acquire(cache->lock("locked"));
    REQUIRE(lock.has_value());
    CHECK(cache_bytes(*cache) == 500);
    const auto out = evict(*cache, 250, "new", 3600);
    CHECK(out.removed == std::vector<std::string>{"old", "recent"});
    CHECK(out.bytes_before == 500);
    CHECK(out.bytes_after == 300);
    CHECK(out.kept_in_use == 3);
    CHECK(!fs::exists(cache->image("old")));
    CHECK(!fs::exists(cache->record("old")));
    CHECK(fs::exists(cache->image("held")));
    CHECK(fs::exists(cache->image("new")));
    CHECK(evict(*cache, 0, "new", 3600).removed.empty());
  }

  TEST_CASE("a busy lock waits, then gives up with the holder's pid") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    const fs::path path = tmp.path() / "k.lock";
    auto held = FileLock::try_acquire(path);
    REQUIRE(held.has_value());
    CHECK(!FileLock::try_acquire(path).has_value());
    long told = -1;
    const auto waited =
        FileLock::acquire(path, std::chrono::seconds(1), [&](long holder) { told = holder; });
    REQUIRE(!waited.has_value());
    CHECK(told == ::getpid());
    CHECK(waited.error().message == path.string() + ": still locked after 1 s by pid " +
                                        std::to_string(::getpid()) +
                                        " (lock_timeout_seconds); giving up");
    held.reset();
    CHECK(FileLock::acquire(path, std::chrono::seconds(1)).has_value());
  }

  TEST_CASE("records round-trip") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    envlock::formats::ImageRecord record;
    record.name = "127.0.0.1:5000/test/sample";
    record.tag = "v1";
    record.digest = "sha256:" + std::string(64, 'a');
    record.manifest_digest = record.digest;
    record.platform = "linux/amd64";
    record.lock_path = "/etc/envlock/locks/a.lock.json";
    record.lock_sha256 = std::string(64, 'b');
    record.pin = "base_image";
    record.sqsh_file = "k.sqsh";
    record.sha256 = std::string(64, 'c');
    record.size = 4096;
    record.expected_from = "first import";
    record.squash_options = "-comp lzo -noD -exit-on-error";
    REQUIRE(envlock::formats::write_image_record(tmp.path() / "k.sqsh.json", record).has_value());
    const auto back = envlock::formats::read_image_record(tmp.path() / "k.sqsh.json");
    REQUIRE(back.has_value());
    CHECK(*back == record);
  }
}
