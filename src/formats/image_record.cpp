#include "formats/image_record.hpp"

namespace envlock::formats {

using nlohmann::json;
using util::FieldReader;

json to_json(const ImageRecord& r) {
  return {{"schema", k_image_record_schema},
          {"image",
           {{"name", r.name},
            {"tag", r.tag},
            {"digest", r.digest},
            {"manifest_digest", r.manifest_digest},
            {"platform", r.platform}}},
          {"lock", {{"path", r.lock_path}, {"sha256", r.lock_sha256}, {"pin", r.pin}}},
          {"sqsh", {{"file", r.sqsh_file}, {"sha256", r.sha256}, {"size", r.size}}},
          {"tree_digest", r.tree_digest},
          {"expected_from", r.expected_from},
          {"enroot",
           {{"squash_options", r.squash_options}, {"source_date_epoch", r.source_date_epoch}}}};
}

template <>
Result<ImageRecord> from_json<ImageRecord>(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the image record");
  read_schema(r, k_image_record_schema);
  ImageRecord out;
  FieldReader image = r.sub("image");
  out.name = image.str("name");
  out.tag = image.str("tag");
  out.digest = image.str("digest");
  out.manifest_digest = image.str("manifest_digest");
  out.platform = image.str("platform");
  r.merge(image);
  FieldReader lock = r.sub("lock");
  out.lock_path = lock.str("path");
  out.lock_sha256 = lock.str("sha256");
  out.pin = lock.str("pin");
  r.merge(lock);
  FieldReader sqsh = r.sub("sqsh");
  out.sqsh_file = sqsh.str("file");
  out.sha256 = sqsh.str("sha256");
  check_sha256(sqsh, "sha256", out.sha256);
  out.size = sqsh.uinteger("size");
  r.merge(sqsh);
  out.tree_digest = r.str("tree_digest");
  out.expected_from = r.str("expected_from");
  FieldReader enroot = r.sub("enroot");
  out.squash_options = enroot.str("squash_options");
  out.source_date_epoch = enroot.integer("source_date_epoch");
  r.merge(enroot);
  ENVLOCK_TRY(r.status());
  return out;
}

Result<ImageRecord> read_image_record(const std::filesystem::path& path) {
  return read_record<ImageRecord>(path);
}

Status write_image_record(const std::filesystem::path& path, const ImageRecord& record) {
  return util::write_json_file(path, to_json(record));
}

std::filesystem::path image_record_path_for(const std::filesystem::path& sqsh) {
  return sqsh.string() + ".json";
}

} // namespace envlock::formats
