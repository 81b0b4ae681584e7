// Handover rows 3 and 4: the code, lockfile and recipe; the source image and imported artifact.
#include "handover/items.hpp"

namespace envlock::handover::detail {

HandoverRow code_row(const Records& r) {
  HandoverRow row{"code",
                  "Training-code commit, dependency lockfile and build recipe",
                  "Retrieve the program and build method used at the time",
                  {}};
  if (r.lock && !r.lock->lock.sources.empty()) {
    for (const auto& [name, pin] : r.lock->lock.sources) {
      const std::string at = "sources." + name;
      const lock::GitPin& p = pin;
      row.items.push_back(
          from_lock(r.lock, name + " repository", at + ".git", [&](auto&) { return p.git; }));
      row.items.push_back(
          from_lock(r.lock, name + " ref", at + ".ref", [&](auto&) { return p.ref; }));
      row.items.push_back(
          from_lock(r.lock, name + " commit", at + ".commit", [&](auto&) { return p.commit; }));
    }
  } else {
    row.items.push_back(missing("Training-code commit"));
  }
  row.items.push_back(from_lock(r.lock, "uv.lock sha256", "python.uv_lock.sha256",
                                [](const lock::Lock& l) { return l.python.uv_lock.sha256; }));
  row.items.push_back(from_lock(r.lock, "pyproject.toml sha256", "python.pyproject_sha256",
                                [](const lock::Lock& l) { return l.python.pyproject_sha256; }));
  row.items.push_back(from_lock(r.lock, "Manifest sha256", "manifest.sha256",
                                [](const lock::Lock& l) { return l.manifest_sha256; }));
  if (r.lock) {
    row.items.push_back(
        derived(r.lock->record, "Lock file sha256", r.lock->record.sha256, "sha256 of the file"));
  } else {
    row.items.push_back(missing("Lock file sha256"));
  }
  if (r.lock && r.lock->lock.recipe) {
    row.items.push_back(derived(r.lock->record, "Build recipe",
                                lock::recipe_to_json(*r.lock->lock.recipe).dump(), "recipe"));
  } else {
    row.items.push_back(from_record(r.provenance, "Build recipe",
                                    "predicate.buildDefinition.buildType",
                                    [](const formats::Statement& s) { return s.build_type; }));
  }
  row.items.push_back(from_record(r.provenance, "Builder", "predicate.runDetails.builder.id",
                                  [](const formats::Statement& s) { return s.builder_id; }));
  return row;
}

HandoverRow image_row(const Records& r) {
  HandoverRow row{"image",
                  "Source-image digest and imported-artifact checksum",
                  "Retrieve the same training environment",
                  {}};
  row.items = {
      from_lock(r.lock, "Base image", "base_image.reference",
                [](const lock::Lock& l) { return l.base_image.reference; }),
      from_lock(r.lock, "Base image digest", "base_image.digest",
                [](const lock::Lock& l) { return l.base_image.digest; }),
      from_lock(r.lock, "Base image platform manifest", "base_image.platform_digest",
                [](const lock::Lock& l) { return l.base_image.platform_digest; }),
      from_record(r.build_result, "Built image", "image.reference",
                  [](const formats::BuildResult& b) { return b.reference(); }),
      from_record(r.build_result, "Built image digest", "image.digest",
                  [](const formats::BuildResult& b) { return b.digest; }),
      from_record(r.provenance, "Provenance subject digest", "subject[0].digest.sha256",
                  [](const formats::Statement& s) {
                    const auto sha = s.subjects.front().digest.find("sha256");
                    return sha == s.subjects.front().digest.end() ? std::string() : sha->second;
                  }),
      from_record(r.squashfs_result, "Squashfs file", "sqsh.file",
                  [](const formats::SquashfsResult& q) { return q.file_name; }),
      from_record(r.squashfs_result, "Squashfs sha256", "sqsh.sha256",
                  [](const formats::SquashfsResult& q) { return q.sha256; }),
  };
  return row;
}

} // namespace envlock::handover::detail
