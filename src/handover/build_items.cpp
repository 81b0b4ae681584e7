// Handover rows 3 and 4: the code, lockfile and recipe; the source image and imported artifact.
#include "handover/items.hpp"
#include "handover/json_pick.hpp"

namespace envlock::handover::detail {

HandoverRow code_row(const Records& r) {
  HandoverRow row{"code",
                  "Training-code commit, dependency lockfile and build recipe",
                  "Retrieve the program and build method used at the time",
                  {}};
  const nlohmann::json* sources = r.lock ? json_at(r.lock->json, "sources") : nullptr;
  if (sources != nullptr && sources->is_object() && !sources->empty()) {
    for (const auto& [name, pin] : sources->items()) {
      row.items.push_back(pick(r.lock, name + " repository", {"sources." + name + ".git"}));
      row.items.push_back(pick(r.lock, name + " ref", {"sources." + name + ".ref"}));
      row.items.push_back(pick(r.lock, name + " commit", {"sources." + name + ".commit"}));
    }
  } else {
    row.items.push_back(missing("Training-code commit"));
  }
  row.items.push_back(pick(r.lock, "uv.lock sha256", {"python.uv_lock.sha256"}));
  row.items.push_back(pick(r.lock, "pyproject.toml sha256", {"python.pyproject_sha256"}));
  row.items.push_back(pick(r.lock, "Manifest sha256", {"manifest.sha256"}));
  if (r.lock) {
    row.items.push_back(derived(*r.lock, "Lock file sha256", r.lock->sha256, "sha256 of the file"));
  } else {
    row.items.push_back(missing("Lock file sha256"));
  }
  const nlohmann::json* recipe = r.lock ? json_at(r.lock->json, "recipe") : nullptr;
  if (recipe != nullptr && !recipe->is_null()) {
    row.items.push_back(derived(*r.lock, "Build recipe", recipe->dump(), "recipe"));
  } else {
    row.items.push_back(pick(r.provenance, "Build recipe",
                             {"predicate.buildDefinition.buildType", "predicate.buildType"}));
  }
  row.items.push_back(
      pick(r.provenance, "Builder", {"predicate.runDetails.builder.id", "predicate.builder.id"}));
  return row;
}

HandoverRow image_row(const Records& r) {
  HandoverRow row{"image",
                  "Source-image digest and imported-artifact checksum",
                  "Retrieve the same training environment",
                  {}};
  row.items = {
      pick(r.lock, "Base image", {"base_image.reference"}),
      pick(r.lock, "Base image digest", {"base_image.digest"}),
      pick(r.lock, "Base image platform manifest", {"base_image.platform_digest"}),
      pick(r.build_result, "Built image", {"reference", "image", "image_ref", "name"}),
      pick(r.build_result, "Built image digest",
           {"digest", "image_digest", "manifest_digest", "image.digest"}),
      pick(r.provenance, "Provenance subject digest",
           {"subject.0.digest.sha256", "subject_digest"}),
      pick(r.squashfs_result, "Squashfs file", {"path", "file", "output", "name"}),
      pick(r.squashfs_result, "Squashfs sha256", {"sha256", "file_sha256", "digest"}),
  };
  return row;
}

} // namespace envlock::handover::detail
