#include "rollback/check.hpp"

#include "formats/build_result.hpp"
#include "formats/squashfs_result.hpp"
#include "lock/lock.hpp"
#include "provenance/keys.hpp"
#include "util/sha256.hpp"

#include <set>
#include <string>
#include <system_error>
#include <vector>

namespace envlock::rollback {

namespace fs = std::filesystem;

namespace {

bool is_regular(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

// An input given explicitly must exist; a default is used only when it is there.
Result<std::optional<fs::path>>
record_path(const fs::path& given, const std::vector<fs::path>& defaults, const char* option) {
  if (!given.empty()) {
    if (!is_regular(given)) {
      return input_error(std::string(option) + " " + given.string() + ": no such file");
    }
    return std::optional<fs::path>(given);
  }
  for (const auto& candidate : defaults) {
    if (is_regular(candidate)) {
      return std::optional<fs::path>(candidate);
    }
  }
  return std::optional<fs::path>();
}

// Collects the registry checks, one per distinct NAME@DIGEST.
class RegistryChecks {
public:
  RegistryChecks(const ManifestProbe& probe, std::vector<Check>& out)
      : m_probe(probe), m_out(out) {}

  // `what` names the piece in messages ("previous base image"); `name` is registry/repository.
  void add(const std::string& id, const std::string& what, const std::string& name,
           const std::string& digest, const std::string& source) {
    const std::string target = name + "@" + digest;
    if (digest.empty() || !m_seen.insert(target).second) {
      return;
    }
    Check check{id, target, Outcome::fail, "", "", source};
    auto ref = oci::parse_image_ref(target);
    if (!ref) {
      check.reason = what + " " + target + ": " + ref.error().message;
      m_out.push_back(std::move(check));
      return;
    }
    auto head = m_probe(*ref);
    if (!head) {
      check.outcome = Outcome::error;
      check.reason = what + " " + target + ": cannot be checked: " + head.error().message;
    } else if (!*head) {
      check.reason =
          what + " " + target + ": 404 in the registry: it was deleted or garbage-collected";
    } else {
      check.outcome = Outcome::pass;
      const std::string type = (*head)->media_type.substr(0, (*head)->media_type.find(';'));
      check.found = "served" + (type.empty() ? std::string() : " (" + type + ")");
    }
    m_out.push_back(std::move(check));
  }

private:
  const ManifestProbe& m_probe;
  std::vector<Check>& m_out;
  std::set<std::string> m_seen;
};

// The previous image from its build result (the file `build_name`): pushed, built from the
// previous lock, in the registry.
void check_build_image(const formats::BuildResult& build, const std::string& build_name,
                       const std::string& lock_name, const std::string& lock_sha256,
                       RegistryChecks& registry, std::vector<Check>& out) {
  const std::string target = build.reference();
  const std::string source = build_name + ": image.digest";
  if (!build.pushed) {
    out.push_back({"image", target, Outcome::fail, "",
                   "previous image " + target + ": " + build_name +
                       " says it was not pushed (pushed: false): the registry cannot give it back",
                   source});
    return;
  }
  if (build.lock_sha256 != lock_sha256) {
    out.push_back({"image", target, Outcome::fail, "",
                   "previous image " + target + ": " + build_name +
                       " was built from another lock (lock_sha256 " + build.lock_sha256 +
                       "), not from " + lock_name + " (" + lock_sha256 + ")",
                   source});
    return;
  }
  registry.add("image", "previous image", build.repository, build.digest, source);
}

// The image a squashfs result squashed, when it came from a registry (REF@DIGEST).
void check_squashed_image(const formats::SquashfsResult& result, const std::string& name,
                          RegistryChecks& registry) {
  auto ref = oci::parse_image_ref(result.image_reference);
  if (result.image_reference.starts_with("oci:") || !ref) {
    return; // an OCI layout on some disk: no registry to ask
  }
  registry.add("image.squashed", "previous image", ref->name(), result.manifest_digest,
               name + ": image.manifest_digest");
}

// image.provenance: looked for only when the build result names a pushed image of this lock
// (the image check says what is wrong otherwise).
Check provenance_of(const std::optional<formats::BuildResult>& build, const std::string& build_name,
                    const std::string& lock_name, const std::string& lock_sha256,
                    const provenance::Key& key, const std::string& key_origin,
                    const AttachedProbe& attached) {
  if (!build || !build->pushed || build->lock_sha256 != lock_sha256 || !attached) {
    return {"image.provenance",
            "",
            Outcome::fail,
            "",
            "previous image's provenance: not looked for: no pushed image of " + lock_name +
                " on record (see the image check)",
            ""};
  }
  const ProvenanceTarget target{build->reference(), lock_name, lock_sha256,
                                build_name + ": image.digest"};
  return check_attached_provenance(target, key, key_origin, attached);
}

Check check_sqsh(const formats::SquashfsResult& result, const std::string& result_name,
                 const fs::path& dir) {
  const fs::path path = dir.empty() ? fs::path(result.file_name) : dir / result.file_name;
  Check check{"sqsh", path.string(), Outcome::fail, "", "", result_name + ": sqsh"};
  const std::string what = "previous .sqsh " + path.string() + ": ";
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec || !is_regular(path)) {
    check.reason = what + "not found (" + result_name + " names " + result.file_name + ")";
    return check;
  }
  if (size != result.size) {
    check.reason = what + std::to_string(size) + " bytes, " + result_name + " records " +
                   std::to_string(result.size);
    return check;
  }
  auto digest = util::sha256_file(path);
  if (!digest) {
    check.outcome = Outcome::error;
    check.reason = what + "cannot be read: " + digest.error().message;
    return check;
  }
  if (digest->sha256 != result.sha256) {
    check.reason =
        what + "sha256 " + digest->sha256 + ", " + result_name + " records " + result.sha256;
    return check;
  }
  check.outcome = Outcome::pass;
  check.found = "sha256 " + digest->sha256 + ", " + std::to_string(size) + " bytes";
  return check;
}

} // namespace

Result<Report> check_rollback(const Inputs& inputs, const ManifestProbe& probe,
                              const AttachedProbe& attached) {
  ENVLOCK_TRY_ASSIGN(const lock::Lock previous, lock::read_lock(inputs.previous_lock));
  const fs::path beside = inputs.previous_lock.parent_path();
  ENVLOCK_TRY_ASSIGN(const auto build_path,
                     record_path(inputs.build_result,
                                 formats::build_result_candidates(inputs.previous_lock),
                                 "--previous-build-result"));
  std::vector<fs::path> squash_defaults;
  if (const auto in_folder = formats::squashfs_result_in(beside)) {
    squash_defaults.push_back(*in_folder);
  }
  ENVLOCK_TRY_ASSIGN(const auto squash_path, record_path(inputs.squashfs_result, squash_defaults,
                                                         "--previous-squashfs-result"));
  if (!inputs.sqsh_dir.empty()) {
    std::error_code ec;
    if (!fs::is_directory(inputs.sqsh_dir, ec)) {
      return input_error("--sqsh-dir " + inputs.sqsh_dir.string() + ": not a folder");
    }
  }
  std::optional<provenance::Key> key;
  if (!inputs.public_key.empty()) {
    ENVLOCK_TRY_ASSIGN(key,
                       provenance::read_key(inputs.public_key, provenance::KeyHalf::public_key));
  }
  Report report;
  report.previous_lock = inputs.previous_lock.filename().string();
  report.previous_lock_sha256 = lock::lock_sha256(previous);
  report.previous_base_image = previous.base_image.name + "@" + previous.base_image.digest;
  if (!inputs.current_lock.empty()) {
    ENVLOCK_TRY_ASSIGN(const lock::Lock current, lock::read_lock(inputs.current_lock));
    report.current_lock = inputs.current_lock.filename().string();
    report.current_lock_sha256 = lock::lock_sha256(current);
  }
  std::optional<formats::BuildResult> build;
  if (build_path) {
    ENVLOCK_TRY_ASSIGN(build, formats::read_build_result(*build_path));
  }
  std::optional<formats::SquashfsResult> squashed;
  if (squash_path) {
    ENVLOCK_TRY_ASSIGN(squashed, formats::read_squashfs_result(*squash_path));
  }

  auto& checks = report.checks;
  RegistryChecks registry(probe, checks);
  const std::string lock_name = report.previous_lock;
  const lock::ImagePin& base = previous.base_image;
  registry.add("base_image", "previous base image", base.name, base.digest,
               lock_name + ": base_image.digest");
  registry.add("base_image.platform", "previous base image's platform manifest", base.name,
               base.platform_digest, lock_name + ": base_image.platform_digest");
  if (previous.recipe) {
    for (std::size_t i = 0; i < previous.recipe->images.size(); ++i) {
      const lock::RecipeImage& image = previous.recipe->images[i];
      auto ref = oci::parse_image_ref(image.image);
      const std::string at = "recipe.images[" + std::to_string(i) + "]";
      registry.add(at, "previous recipe image", ref ? ref->name() : image.image, image.digest,
                   lock_name + ": " + at + ".digest");
    }
  }
  if (build) {
    report.previous_image = build->reference();
    check_build_image(*build, build_path->filename().string(), lock_name,
                      report.previous_lock_sha256, registry, checks);
  }
  if (key) {
    const std::string build_name = build_path ? build_path->filename().string() : "";
    checks.push_back(provenance_of(build, build_name, lock_name, report.previous_lock_sha256, *key,
                                   inputs.public_key.string(), attached));
  }
  if (squashed) {
    const std::string name = squash_path->filename().string();
    if (report.previous_image.empty()) {
      report.previous_image = squashed->image_reference;
    }
    check_squashed_image(*squashed, name, registry);
    const fs::path dir = inputs.sqsh_dir.empty() ? squash_path->parent_path() : inputs.sqsh_dir;
    report.previous_sqsh = squashed->file_name;
    report.previous_sqsh_sha256 = squashed->sha256;
    checks.push_back(check_sqsh(*squashed, name, dir));
  }
  if (!build && !squashed) {
    checks.push_back({"image", "", Outcome::fail, "",
                      "previous image: no build-result.json or squashfs-result.json beside " +
                          lock_name +
                          "; give --previous-build-result or --previous-squashfs-result",
                      ""});
  }
  if (!squashed) {
    checks.push_back({"sqsh", "", Outcome::fail, "",
                      "previous .sqsh: no squashfs-result.json beside " + lock_name +
                          "; give --previous-squashfs-result",
                      ""});
  }
  return report;
}

} // namespace envlock::rollback
