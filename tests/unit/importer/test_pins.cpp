#include "../testutil.hpp"
#include "importer/pins.hpp"
#include "lock/lock.hpp"
#include "util/json.hpp"

#include <doctest/doctest.h>

namespace fs = std::filesystem;
using envlock::importer::find_pin;
using envlock::importer::parse_image_uri;
using envlock::importer::read_catalogue;

namespace {

const std::string k_a(64, 'a');
const std::string k_b(64, 'b');
const std::string k_c(64, 'c');

// The verify test lock, with its base image digests set to sha256:DIGEST / sha256:PLATFORM.
void write_lock(const fs::path& path, const std::string& digest, const std::string& platform) {
  auto lock = envlock::lock::read_lock(envlock::test::data_path("verify/lock.json"));
  REQUIRE(lock.has_value());
  lock->base_image.digest = "sha256:" + digest;
  lock->base_image.platform_digest = "sha256:" + platform;
  REQUIRE(envlock::lock::write_lock(path, *lock).has_value());
}

std::string pinned(const envlock::importer::Catalogue& catalogue, const std::string& uri) {
  const auto pin = find_pin(catalogue, *parse_image_uri(uri));
  REQUIRE_MESSAGE(pin.has_value(), pin.error().message);
  return *pin ? (*pin)->role + " " + (*pin)->platform_digest : "none";
}

} // namespace

TEST_SUITE("importer.pins") {
  TEST_CASE("a lock pins its base image by tag and by either digest") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    write_lock(tmp.path() / "a.lock.json", k_a, k_b);
    const auto catalogue = read_catalogue({tmp.path()});
    REQUIRE(catalogue.has_value());
    CHECK(catalogue->lock_files.size() == 1);
    const std::string want = "base_image sha256:" + k_b;
    CHECK(pinned(*catalogue, "docker://registry.example.invalid#nvidia/pytorch:26.06-py3") == want);
    CHECK(pinned(*catalogue, "docker://registry.example.invalid/nvidia/pytorch@sha256:" + k_a) ==
          want);
    CHECK(pinned(*catalogue, "docker://registry.example.invalid#nvidia/pytorch:sha256:" + k_b) ==
          want);
    CHECK(pinned(*catalogue, "docker://registry.example.invalid#nvidia/pytorch") == "none");
    CHECK(pinned(*catalogue, "docker://registry.example.invalid#nvidia/pytorch:26.07-py3") ==
          "none");
    CHECK(pinned(*catalogue, "docker://registry.example.invalid#nvidia/pytorch@sha256:" + k_c) ==
          "none");
    CHECK(pinned(*catalogue, "docker://other.invalid#nvidia/pytorch:26.06-py3") == "none");
  }

  TEST_CASE("the built image is pinned once build-result.json records it for this lock") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    write_lock(tmp.path() / "envlock.lock.json", k_a, k_b);
    const auto lock = envlock::lock::read_lock(tmp.path() / "envlock.lock.json");
    const nlohmann::json result = {
        {"schema", "envlock.build-result/v1"},
        {"image",
         {{"repository", "registry.example.invalid/ml/shan-training"},
          {"tag", "mc0.19.0-cu13.3"},
          {"digest", "sha256:" + k_c},
          {"reference", "registry.example.invalid/ml/shan-training@sha256:" + k_c}}},
        {"pushed", true},
        {"builder", {{"name", "buildah"}, {"version", "1.28.2"}}},
        {"lock_sha256", envlock::lock::lock_sha256(*lock)},
        {"dockerfile_sha256", k_a},
        {"context_sha256", k_a},
        {"build_args", nlohmann::json::object()},
        {"source_date_epoch", 0},
        {"log", {{"path", "build.log"}, {"sha256", k_a}}},
        {"started_at", "2026-11-30T23:01:52Z"},
        {"finished_at", "2026-11-30T23:02:11Z"}};
    const std::string uri = "docker://registry.example.invalid#ml/shan-training:mc0.19.0-cu13.3";
    auto catalogue = read_catalogue({tmp.path() / "envlock.lock.json"});
    CHECK(pinned(*catalogue, uri) == "none");
    REQUIRE(envlock::util::write_json_file(tmp.path() / "build-result.json", result).has_value());
    catalogue = read_catalogue({tmp.path() / "envlock.lock.json"});
    CHECK(pinned(*catalogue, uri) == "image sha256:" + k_c);
    nlohmann::json other = result;
    other["lock_sha256"] = k_a;
    REQUIRE(envlock::util::write_json_file(tmp.path() / "build-result.json", other).has_value());
    catalogue = read_catalogue({tmp.path() / "envlock.lock.json"});
    CHECK(pinned(*catalogue, uri) == "none");
  }

  TEST_CASE("two locks pinning one tag to two digests are refused") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    write_lock(tmp.path() / "a.lock.json", k_a, k_a);
    write_lock(tmp.path() / "b.lock.json", k_b, k_b);
    const auto catalogue = read_catalogue({tmp.path()});
    REQUIRE(catalogue.has_value());
    const auto pin = find_pin(
        *catalogue, *parse_image_uri("docker://registry.example.invalid#nvidia/pytorch:26.06-py3"));
    REQUIRE(!pin.has_value());
    CHECK(pin.error().message == "docker://registry.example.invalid#nvidia/pytorch:26.06-py3: " +
                                     (tmp.path() / "a.lock.json").string() +
                                     " pins it to sha256:" + k_a + ", " +
                                     (tmp.path() / "b.lock.json").string() + " to sha256:" + k_b +
                                     "; remove one of the locks from the configuration");
  }

  TEST_CASE("a folder without locks and a missing lock are input errors") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    auto catalogue = read_catalogue({tmp.path()});
    REQUIRE(!catalogue.has_value());
    CHECK(catalogue.error().message == tmp.path().string() + ": no *.lock.json in this folder");
    catalogue = read_catalogue({tmp.path() / "none.lock.json"});
    REQUIRE(!catalogue.has_value());
    CHECK(catalogue.error().code == envlock::ExitCode::usage);
  }
}
