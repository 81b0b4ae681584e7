#include "cli/supply_chain/sbom_document.hpp"

#include "lock/lock.hpp"
#include "oci/platform.hpp"
#include "sbom/collect.hpp"
#include "sbom/cyclonedx.hpp"
#include "sbom/image_tree.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"
#include "uv/uv_lock.hpp"

#include <iostream>

namespace envlock::cli {

namespace {

namespace fs = std::filesystem;

// uv.lock beside the manifest the lock was made from, checked against the lock's sha256.
Status read_sbom_uv_lock(const fs::path& lock_path, const lock::Lock& lock,
                         sbom::SbomInputs& inputs) {
  if (lock.python.uv_lock.path.empty()) {
    return {};
  }
  const fs::path manifest_dir =
      lock_path.parent_path() / fs::path(lock.manifest_path).parent_path();
  const fs::path path = (manifest_dir / lock.python.uv_lock.path).lexically_normal();
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    std::cerr << "envlock: " << path.string()
              << ": not found; the SBOM gives no wheel hashes (uv.lock is read beside the "
                 "manifest)\n";
    return {};
  }
  ENVLOCK_TRY_ASSIGN(std::string text, util::read_file_limited(path, uv::k_uv_lock_limit));
  const std::string sha = util::sha256_hex(text);
  if (sha != lock.python.uv_lock.sha256) {
    return input_error(path.string() + ": sha256 " + sha + ", not the " +
                       lock.python.uv_lock.sha256 + " " + lock_path.string() +
                       " records; lock again (envlock lock) or give the lock uv.lock was locked "
                       "with");
  }
  inputs.uv_lock_text = std::move(text);
  inputs.uv_lock_origin = path.string();
  return {};
}

Result<sbom::ImageTree> sbom_tree(const SbomSource& source, const std::optional<lock::Lock>& lock) {
  if (!source.root.empty()) {
    return sbom::tree_of_folder(source.root);
  }
  if (!source.sqsh.empty()) {
    return sbom::tree_of_sqsh(source.sqsh);
  }
  ENVLOCK_TRY_ASSIGN(const oci::ImageRef ref, oci::parse_image_ref(source.image));
  std::string platform = source.platform;
  if (platform.empty()) {
    platform = lock && !lock->base_image.platform.empty() ? lock->base_image.platform
                                                          : oci::k_default_platform;
  }
  return sbom::tree_of_image(ref, platform, source.registry,
                             lock ? lock->enroot.locale : lock::EnrootLocale::utf8);
}

} // namespace

Result<std::string> sbom_document(const SbomSource& source) {
  std::optional<lock::Lock> lock;
  if (source.lock) {
    ENVLOCK_TRY_ASSIGN(lock, lock::read_lock(*source.lock));
  }
  ENVLOCK_TRY_ASSIGN(const sbom::ImageTree tree, sbom_tree(source, lock));
  for (const auto& note : tree.notes) {
    std::cerr << "envlock: " << note << "\n";
  }
  sbom::SbomInputs inputs;
  inputs.root = tree.root;
  inputs.image = tree.facts;
  if (lock) {
    ENVLOCK_TRY(read_sbom_uv_lock(*source.lock, *lock, inputs));
  }
  inputs.lock = std::move(lock);
  inputs.source_date_epoch = source.source_date_epoch;
  inputs.envlock_version = ENVLOCK_VERSION;
  ENVLOCK_TRY_ASSIGN(const sbom::Bom bom, sbom::collect_bom(inputs));
  return util::canonical_json(sbom::to_cyclonedx(bom));
}

} // namespace envlock::cli
