// envlock rollback check: the registry asked once per NAME@DIGEST, the .sqsh against its squashfs
// result, each missing piece named word for word, the outcome and exit code, the report's forms.
#include "../testutil.hpp"
#include "formats/build_result.hpp"
#include "formats/squashfs_result.hpp"
#include "lock/lock.hpp"
#include "provenance/dsse.hpp"
#include "provenance/keys.hpp"
#include "provenance/signing.hpp"
#include "rollback/check.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

using namespace envlock;

namespace {

const std::string k_rb_image_digest = "sha256:" + std::string(64, 'b');
const std::string k_rb_image = "registry.example.invalid/ml/train";
const std::string k_rb_sqsh_bytes = "hsqs and the rest of a squashfs image";

// A previous environment in a temporary folder: old.lock.json, build-result.json,
// squashfs-result.json and train.sqsh beside it.
struct RollbackFixture {
  util::TempDir dir = test::temp_dir("envlock-rollback");
  lock::Lock previous;
  std::filesystem::path lock_path;

  RollbackFixture() {
    auto read = lock::read_lock(test::data_path("handover/full/previous.lock.json"));
    REQUIRE_MESSAGE(read.has_value(), read.error().message);
    previous = *read;
    lock_path = dir.path() / "old.lock.json";
    REQUIRE(lock::write_lock(lock_path, previous).has_value());
    write_build(true, lock::lock_sha256(previous));
    formats::SquashfsResult squashed;
    squashed.image_reference = k_rb_image + "@" + k_rb_image_digest;
    squashed.manifest_digest = k_rb_image_digest;
    squashed.platform = "linux/amd64";
    squashed.file_name = "train.sqsh";
    squashed.sha256 = util::sha256_hex(k_rb_sqsh_bytes);
    squashed.size = k_rb_sqsh_bytes.size();
    squashed.tree_digest = "sha256:" + std::string(64, 'c');
    squashed.producer = "envlock";
    squashed.squashfs_tools_version = "4.5.1";
    const auto written =
        formats::write_squashfs_result(dir.path() / "squashfs-result.json", squashed);
    REQUIRE_MESSAGE(written.has_value(), written.error().message);
    test::write_text(dir.path() / "train.sqsh", k_rb_sqsh_bytes);
  }

  void write_build(bool pushed, const std::string& lock_sha256) const {
    formats::BuildResult b;
    b.repository = k_rb_image;
    b.tag = "core_v0.18.2";
    b.digest = k_rb_image_digest;
    b.pushed = pushed;
    b.builder_name = "buildah";
    b.builder_version = "1.28.2";
    b.lock_sha256 = lock_sha256;
    b.dockerfile_sha256 = std::string(64, '1');
    b.context_sha256 = std::string(64, '0');
    b.log_path = "build-result.log";
    b.log_sha256 = std::string(64, '2');
    b.started_at = "2026-11-30T23:01:52Z";
    b.finished_at = "2026-11-30T23:02:11Z";
    const auto written = formats::write_build_result(dir.path() / "build-result.json", b);
    REQUIRE_MESSAGE(written.has_value(), written.error().message);
  }
};

// A registry stand-in: every NAME@DIGEST it is asked for is recorded; `gone` answers 404,
// `down` cannot be asked, everything else is served.
struct FakeRegistry {
  std::vector<std::string> asked;
  std::set<std::string> gone;
  std::set<std::string> down;

  rollback::ManifestProbe probe() {
    return [this](const oci::ImageRef& image) -> Result<std::optional<oci::ManifestHead>> {
      const std::string target = image.name() + "@" + image.digest;
      asked.push_back(target);
      if (down.count(target) != 0) {
        return env_error("HEAD https://" + image.registry + "/v2/: HTTP 503 (1 attempt)");
      }
      if (gone.count(target) != 0) {
        return std::optional<oci::ManifestHead>();
      }
      return std::optional<oci::ManifestHead>(oci::ManifestHead{
          "application/vnd.oci.image.manifest.v1+json; charset=utf-8", image.digest, 420});
    };
  }
};

std::vector<std::string> rollback_ids(const rollback::Report& report) {
  std::vector<std::string> out;
  for (const auto& check : report.checks) {
    out.push_back(check.id + " " + rollback::to_string(check.outcome));
  }
  return out;
}

// A provenance envelope signed by `key`: subject `digest`, lockFile `lock_sha256`.
std::string rb_envelope(const provenance::Key& key, const std::string& digest,
                        const std::string& lock_sha256) {
  const nlohmann::json statement = {
      {"_type", "https://in-toto.io/Statement/v1"},
      {"subject", {{{"name", k_rb_image}, {"digest", {{"sha256", digest.substr(7)}}}}}},
      {"predicateType", "https://slsa.dev/provenance/v1"},
      {"predicate",
       {{"buildDefinition",
         {{"externalParameters", {{"lockFile", {{"digest", {{"sha256", lock_sha256}}}}}}}}}}}};
  const auto envelope = provenance::sign_statement(util::canonical_json(statement), key, "test");
  REQUIRE(envelope.has_value());
  return util::canonical_json(provenance::to_json(*envelope));
}

const rollback::Check* rb_check(const rollback::Report& report, const std::string& id) {
  for (const auto& check : report.checks) {
    if (check.id == id) {
      return &check;
    }
  }
  return nullptr;
}

} // namespace

TEST_SUITE("rollback") {
  TEST_CASE("--pub: the previous image's signed provenance among its attestations") {
    RollbackFixture f;
    FakeRegistry registry;
    const auto key = provenance::generate_key();
    const auto other = provenance::generate_key();
    REQUIRE((key.has_value() && other.has_value()));
    const auto pem = provenance::public_key_pem(*key);
    REQUIRE(pem.has_value());
    test::write_text(f.dir.path() / "ci.pub", *pem);
    rollback::Inputs inputs{f.lock_path, {}, {}, {}, {}, f.dir.path() / "ci.pub"};
    const std::string lock_sha = lock::lock_sha256(f.previous);
    const std::string art1 = "sha256:" + std::string(64, '1');
    const std::string art2 = "sha256:" + std::string(64, '2');
    std::vector<std::string> asked;
    rollback::Attached held{"tag sha256-" + std::string(64, 'b'), {}};
    const rollback::AttachedProbe attached =
        [&](const oci::ImageRef& image) -> Result<rollback::Attached> {
      asked.push_back(image.name() + "@" + image.digest);
      return held;
    };

    auto report = rollback::check_rollback(inputs, registry.probe(), attached);
    REQUIRE_MESSAGE(report.has_value(), report.error().message);
    const rollback::Check* check = rb_check(*report, "image.provenance");
    REQUIRE(check != nullptr);
    CHECK(asked == std::vector<std::string>{k_rb_image + "@" + k_rb_image_digest});
    CHECK(check->outcome == rollback::Outcome::fail);
    CHECK(check->reason == "previous image " + k_rb_image + "@" + k_rb_image_digest +
                               ": no provenance attached (looked in tag sha256-" +
                               std::string(64, 'b') + "); attach it with envlock attest push");
    CHECK(check->source == "build-result.json: image.digest");

    held.files = {{art1, rb_envelope(*other, k_rb_image_digest, lock_sha)},
                  {art2, rb_envelope(*key, k_rb_image_digest, std::string(64, '9'))}};
    report = rollback::check_rollback(inputs, registry.probe(), attached);
    REQUIRE(report.has_value());
    check = rb_check(*report, "image.provenance");
    REQUIRE(check != nullptr);
    CHECK(check->outcome == rollback::Outcome::fail);
    CHECK(check->reason == "previous image " + k_rb_image + "@" + k_rb_image_digest +
                               ": no attached provenance holds: attestation " + art1 +
                               ": signed by key " + other->key_id() + ", not by " +
                               (f.dir.path() / "ci.pub").string() + " (key " + key->key_id() +
                               "); attestation " + art2 + ": describes the lock " +
                               std::string(64, '9') + ", not old.lock.json (" + lock_sha + ")");
    CHECK(rollback::exit_code_of(*report) == ExitCode::failed);

    held.files.push_back({art1, rb_envelope(*key, k_rb_image_digest, lock_sha)});
    report = rollback::check_rollback(inputs, registry.probe(), attached);
    REQUIRE(report.has_value());
    check = rb_check(*report, "image.provenance");
    REQUIRE(check != nullptr);
    CHECK(check->outcome == rollback::Outcome::pass);
    CHECK(check->found == "signed provenance " + art1 + " (key " + key->key_id() +
                              ") of old.lock.json, from tag sha256-" + std::string(64, 'b'));
    CHECK(rollback::exit_code_of(*report) == ExitCode::ok);

    const rollback::AttachedProbe down = [](const oci::ImageRef&) -> Result<rollback::Attached> {
      return env_error("GET http://registry.example.invalid/v2/: HTTP 503 (1 attempt)");
    };
    report = rollback::check_rollback(inputs, registry.probe(), down);
    REQUIRE(report.has_value());
    check = rb_check(*report, "image.provenance");
    REQUIRE(check != nullptr);
    CHECK(check->outcome == rollback::Outcome::error);
    CHECK(check->reason == "previous image " + k_rb_image + "@" + k_rb_image_digest +
                               ": its attestations cannot be listed: GET "
                               "http://registry.example.invalid/v2/: HTTP 503 (1 attempt)");

    // Without --pub the attestations are not looked at.
    asked.clear();
    report =
        rollback::check_rollback({f.lock_path, {}, {}, {}, {}, {}}, registry.probe(), attached);
    REQUIRE(report.has_value());
    CHECK(rb_check(*report, "image.provenance") == nullptr);
    CHECK(asked.empty());

    // A build that was never pushed: not looked for, and said so.
    f.write_build(false, lock_sha);
    report = rollback::check_rollback(inputs, registry.probe(), attached);
    REQUIRE(report.has_value());
    check = rb_check(*report, "image.provenance");
    REQUIRE(check != nullptr);
    CHECK(check->reason == "previous image's provenance: not looked for: no pushed image of "
                           "old.lock.json on record (see the image check)");
  }

  TEST_CASE("everything there: each piece asked once, by digest, and named by its record") {
    RollbackFixture f;
    FakeRegistry registry;
    const auto report =
        rollback::check_rollback({f.lock_path, {}, {}, {}, {}, {}}, registry.probe());
    REQUIRE_MESSAGE(report.has_value(), report.error().message);
    const lock::ImagePin& base = f.previous.base_image;
    std::vector<std::string> expected_ids = {"base_image pass"};
    std::vector<std::string> expected_asked = {base.name + "@" + base.digest};
    if (base.platform_digest != base.digest) {
      expected_ids.push_back("base_image.platform pass");
      expected_asked.push_back(base.name + "@" + base.platform_digest);
    }
    // The upstream recipe's FROM image, another name for the same base; the squashed manifest
    // is the built one, so it is not asked again.
    REQUIRE(f.previous.recipe.has_value());
    const lock::RecipeImage& from = f.previous.recipe->images.at(0);
    expected_ids.insert(expected_ids.end(), {"recipe.images[0] pass", "image pass", "sqsh pass"});
    expected_asked.push_back("registry.example.invalid/nvidia/pytorch@" + from.digest);
    expected_asked.push_back(k_rb_image + "@" + k_rb_image_digest);
    CHECK(rollback_ids(*report) == expected_ids);
    CHECK(registry.asked == expected_asked);
    CHECK(report->checks[0].found == "served (application/vnd.oci.image.manifest.v1+json)");
    CHECK(report->checks[0].source == "old.lock.json: base_image.digest");
    CHECK(report->checks.back().found == "sha256 " + util::sha256_hex(k_rb_sqsh_bytes) + ", " +
                                             std::to_string(k_rb_sqsh_bytes.size()) + " bytes");
    CHECK(report->checks.back().source == "squashfs-result.json: sqsh");
    CHECK(report->previous_lock_sha256 == lock::lock_sha256(f.previous));
    CHECK(report->previous_image == k_rb_image + "@" + k_rb_image_digest);
    CHECK(rollback::outcome_of(*report) == rollback::Outcome::pass);
    CHECK(rollback::exit_code_of(*report) == ExitCode::ok);
    const std::string text = rollback::report_to_text(*report);
    CHECK(text.substr(text.rfind("rollback to")) == "rollback to old.lock.json: ready (" +
                                                        std::to_string(expected_ids.size()) +
                                                        " passed)\n");
  }

  TEST_CASE("a deleted image, a .sqsh that differs: each named, exit 1") {
    RollbackFixture f;
    FakeRegistry registry;
    registry.gone.insert(k_rb_image + "@" + k_rb_image_digest);
    const auto node = f.dir.path() / "node";
    test::write_text(node / "train.sqsh", "other bytes of the same length as the image..");
    const auto report =
        rollback::check_rollback({f.lock_path, {}, {}, node, {}, {}}, registry.probe());
    REQUIRE_MESSAGE(report.has_value(), report.error().message);
    const rollback::Check& image = report->checks[report->checks.size() - 2];
    CHECK(image.id == "image");
    CHECK(image.reason == "previous image " + k_rb_image + "@" + k_rb_image_digest +
                              ": 404 in the registry: it was deleted or garbage-collected");
    const rollback::Check& sqsh = report->checks.back();
    CHECK(sqsh.reason == "previous .sqsh " + (node / "train.sqsh").string() + ": 45 bytes, " +
                             "squashfs-result.json records " +
                             std::to_string(k_rb_sqsh_bytes.size()));
    CHECK(rollback::exit_code_of(*report) == ExitCode::failed);
    const nlohmann::json j = rollback::report_to_json(*report);
    CHECK(j["outcome"] == "fail");
    CHECK(j["summary"]["failed"] == 2);
    CHECK(j["schema"] == "envlock.rollback-report/v1");
    CHECK(j["current"].is_null());
  }

  TEST_CASE("a registry that cannot be asked is an error, not a 404: exit 3") {
    RollbackFixture f;
    FakeRegistry registry;
    const lock::ImagePin& base = f.previous.base_image;
    registry.down.insert(base.name + "@" + base.digest);
    const auto report =
        rollback::check_rollback({f.lock_path, {}, {}, {}, {}, {}}, registry.probe());
    REQUIRE(report.has_value());
    CHECK(report->checks[0].outcome == rollback::Outcome::error);
    CHECK(report->checks[0].reason == "previous base image " + base.name + "@" + base.digest +
                                          ": cannot be checked: HEAD https://" +
                                          base.name.substr(0, base.name.find('/')) +
                                          "/v2/: HTTP 503 (1 attempt)");
    CHECK(rollback::exit_code_of(*report) == ExitCode::environment);
    const std::string text = rollback::report_to_text(*report);
    CHECK(text.substr(text.rfind("rollback to"))
              .starts_with("rollback to old.lock.json: unknown (1 not checked, "));
  }

  TEST_CASE("a build never pushed, or built from another lock, cannot bring the image back") {
    RollbackFixture f;
    FakeRegistry registry;
    f.write_build(false, lock::lock_sha256(f.previous));
    auto report = rollback::check_rollback({f.lock_path, {}, {}, {}, {}, {}}, registry.probe());
    REQUIRE(report.has_value());
    const auto image_check = [](const rollback::Report& r) {
      for (const auto& check : r.checks) {
        if (check.id == "image") {
          return check;
        }
      }
      return rollback::Check{};
    };
    CHECK(image_check(*report).reason ==
          "previous image " + k_rb_image + "@" + k_rb_image_digest +
              ": build-result.json says it was not pushed (pushed: false): the registry cannot "
              "give it back");
    f.write_build(true, std::string(64, 'f'));
    registry.asked.clear();
    report = rollback::check_rollback({f.lock_path, {}, {}, {}, {}, {}}, registry.probe());
    REQUIRE(report.has_value());
    CHECK(image_check(*report).reason ==
          "previous image " + k_rb_image + "@" + k_rb_image_digest +
              ": build-result.json was built from another lock (lock_sha256 " +
              std::string(64, 'f') + "), not from old.lock.json (" + lock::lock_sha256(f.previous) +
              ")");
    // The squashed manifest is then asked for on its own.
    CHECK(image_check(*report).outcome == rollback::Outcome::fail);
    CHECK(std::count(registry.asked.begin(), registry.asked.end(),
                     k_rb_image + "@" + k_rb_image_digest) == 1);
  }

  TEST_CASE("bad input is refused: exit 2") {
    RollbackFixture f;
    FakeRegistry registry;
    auto report = rollback::check_rollback(
        {f.lock_path, {}, f.dir.path() / "gone.json", {}, {}, {}}, registry.probe());
    REQUIRE_FALSE(report.has_value());
    CHECK(report.error().code == ExitCode::usage);
    CHECK(report.error().message ==
          "--previous-squashfs-result " + (f.dir.path() / "gone.json").string() + ": no such file");
    report = rollback::check_rollback({f.lock_path, {}, {}, f.lock_path, {}, {}}, registry.probe());
    REQUIRE_FALSE(report.has_value());
    CHECK(report.error().message == "--sqsh-dir " + f.lock_path.string() + ": not a folder");
    CHECK(registry.asked.empty());
  }
}
