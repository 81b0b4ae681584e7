#include "../testutil.hpp"
#include "formats/squashfs_result.hpp"
#include "importer/expected.hpp"
#include "provenance/dsse.hpp"
#include "provenance/keys.hpp"
#include "provenance/signing.hpp"
#include "util/json.hpp"

#include <doctest/doctest.h>

namespace fs = std::filesystem;
using namespace envlock::importer;

namespace {

const std::string k_manifest = "sha256:" + std::string(64, 'd');
const std::string k_lock_sha(64, 'e');
const std::string k_sqsh_sha(64, 'f');

Pin pin_at(const fs::path& lock, const std::string& role) {
  Pin pin;
  pin.role = role;
  pin.image = *envlock::oci::parse_image_ref("registry.example.invalid/ml/train@" + k_manifest);
  pin.platform = "linux/amd64";
  pin.platform_digest = k_manifest;
  pin.lock_path = lock;
  pin.lock_sha256 = k_lock_sha;
  pin.settings.source_date_epoch = 1700000000;
  return pin;
}

void write_record(const fs::path& path, const std::string& manifest, std::int64_t epoch) {
  envlock::formats::SquashfsResult result;
  result.image_reference = "registry.example.invalid/ml/train@" + manifest;
  result.manifest_digest = manifest;
  result.platform = "linux/amd64";
  result.file_name = "train.sqsh";
  result.sha256 = k_sqsh_sha;
  result.size = 4096;
  result.tree_digest = "sha256:" + std::string(64, '0');
  result.producer = "envlock";
  result.squash_options = "-comp lzo -noD -exit-on-error";
  result.source_date_epoch = epoch;
  fs::create_directories(path.parent_path());
  REQUIRE(envlock::formats::write_squashfs_result(path, result).has_value());
}

// A signed provenance statement beside `lock`, naming `lock_sha` and the .sqsh's sha256.
void write_envelope(const fs::path& lock, const envlock::provenance::Key& key,
                    const std::string& lock_sha) {
  const nlohmann::json statement = {
      {"_type", "https://in-toto.io/Statement/v1"},
      {"subject",
       {{{"name", "registry.example.invalid/ml/train"},
         {"digest", {{"sha256", k_manifest.substr(7)}}}},
        {{"name", "train.sqsh"}, {"digest", {{"sha256", k_sqsh_sha}}}}}},
      {"predicateType", "https://slsa.dev/provenance/v1"},
      {"predicate",
       {{"buildDefinition",
         {{"externalParameters", {{"lockFile", {{"digest", {{"sha256", lock_sha}}}}}}}}}}}};
  const auto envelope = envlock::provenance::sign_statement(
      envlock::util::canonical_json(statement), key, "statement");
  REQUIRE(envelope.has_value());
  envlock::test::write_text(lock.parent_path() / "provenance.dsse.json",
                            envlock::util::canonical_json(envlock::provenance::to_json(*envelope)));
}

ImporterConfig config_with_key(const fs::path& dir, const envlock::provenance::Key& key) {
  const auto pem = envlock::provenance::public_key_pem(key);
  REQUIRE(pem.has_value());
  envlock::test::write_text(dir / "ci.pub", *pem);
  ImporterConfig config;
  config.file = dir / "importer.yaml";
  config.public_key = dir / "ci.pub";
  return config;
}

} // namespace

TEST_SUITE("importer.expected") {
  TEST_CASE("a squashfs-result.json made like the pin gives the expected sha256") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    write_record(tmp.path() / "images/train/squashfs-result.json", k_manifest, 1700000000);
    write_record(tmp.path() / "images/other.squashfs-result.json", k_manifest, 0);
    envlock::test::write_text(tmp.path() / "images/bad.squashfs-result.json", "{}");
    const auto scan = scan_sqsh_dirs({tmp.path() / "images", tmp.path() / "none"});
    CHECK(scan.records.size() == 2);
    REQUIRE(scan.warnings.size() == 2);
    CHECK(scan.warnings[0] == (tmp.path() / "images/bad.squashfs-result.json").string() +
                                  ": schema: missing; record ignored");
    CHECK(scan.warnings[1] ==
          (tmp.path() / "none").string() + ": not a folder; sqsh_dirs entry ignored");
    const auto e = expectation_for(pin_at(tmp.path() / "a.lock.json", "base_image"), {}, scan);
    REQUIRE(e.has_value());
    CHECK(e->sha256 == k_sqsh_sha);
    CHECK(e->size == 4096);
    CHECK(e->source == (tmp.path() / "images/train/squashfs-result.json").string());
    REQUIRE(e->distributed.has_value());
    CHECK(e->distributed->sqsh == tmp.path() / "images/train/train.sqsh");
    Pin other = pin_at(tmp.path() / "a.lock.json", "base_image");
    other.platform_digest = "sha256:" + std::string(64, '1');
    CHECK(expectation_for(other, {}, scan)->sha256.empty());
  }

  TEST_CASE("with a public key, the image a lock builds is checked against signed provenance") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    const auto key = envlock::provenance::generate_key();
    REQUIRE(key.has_value());
    const ImporterConfig config = config_with_key(tmp.path(), *key);
    const fs::path lock = tmp.path() / "locks/train.lock.json";
    envlock::test::write_text(lock, "{}");
    auto e = expectation_for(pin_at(lock, "image"), config, {});
    REQUIRE(!e.has_value());
    CHECK(e.error().code == envlock::ExitCode::failed);
    CHECK(e.error().message == "no signed provenance for " + lock.string() + " (looked for " +
                                   (tmp.path() / "locks/provenance.dsse.json").string() +
                                   "); a public key is configured in " + config.file.string());
    write_envelope(lock, *key, k_lock_sha);
    e = expectation_for(pin_at(lock, "image"), config, {});
    REQUIRE_MESSAGE(e.has_value(), e.error().message);
    CHECK(e->sha256 == k_sqsh_sha);
    CHECK(e->source == (tmp.path() / "locks/provenance.dsse.json").string() + " (signed by " +
                           key->key_id() + ")");
    // The base image is not what provenance describes: its records are used as without a key.
    CHECK(expectation_for(pin_at(lock, "base_image"), config, {})->sha256.empty());

    write_envelope(lock, *key, std::string(64, '2'));
    e = expectation_for(pin_at(lock, "image"), config, {});
    REQUIRE(!e.has_value());
    CHECK(e.error().message == (tmp.path() / "locks/provenance.dsse.json").string() +
                                   ": describes the lock " + std::string(64, '2') + ", not " +
                                   lock.string() + " (" + k_lock_sha + ")");

    const auto other = envlock::provenance::generate_key();
    REQUIRE(other.has_value());
    write_envelope(lock, *other, k_lock_sha);
    e = expectation_for(pin_at(lock, "image"), config, {});
    REQUIRE(!e.has_value());
    CHECK(e.error().message == (tmp.path() / "locks/provenance.dsse.json").string() +
                                   ": signed by key " + other->key_id() + ", not by " +
                                   config.public_key.string() + " (key " + key->key_id() + ")");
  }

  TEST_CASE("the record beside a .sqsh given by path") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    write_record(tmp.path() / "squashfs-result.json", k_manifest, 0);
    CHECK(record_beside(tmp.path() / "train.sqsh").has_value());
    CHECK(!record_beside(tmp.path() / "other.sqsh").has_value());
  }
}
