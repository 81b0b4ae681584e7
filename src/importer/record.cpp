#include "importer/record.hpp"

#include "util/json.hpp"

namespace envlock::importer {

using nlohmann::json;

json to_json(const ImageRecord& r) {
  return {{"schema", k_record_schema},
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

Result<ImageRecord> record_from_json(const json& value, const std::string& origin) {
  if (!value.is_object() || value.value("schema", "") != k_record_schema) {
    return input_error(origin + ": not an " + std::string(k_record_schema));
  }
  try {
    ImageRecord r;
    const json& image = value.at("image");
    r.name = image.at("name");
    r.tag = image.at("tag");
    r.digest = image.at("digest");
    r.manifest_digest = image.at("manifest_digest");
    r.platform = image.at("platform");
    const json& lock = value.at("lock");
    r.lock_path = lock.at("path");
    r.lock_sha256 = lock.at("sha256");
    r.pin = lock.at("pin");
    const json& sqsh = value.at("sqsh");
    r.sqsh_file = sqsh.at("file");
    r.sha256 = sqsh.at("sha256");
    r.size = sqsh.at("size");
    r.tree_digest = value.at("tree_digest");
    r.expected_from = value.at("expected_from");
    r.squash_options = value.at("enroot").at("squash_options");
    r.source_date_epoch = value.at("enroot").at("source_date_epoch");
    return r;
  } catch (const json::exception& e) {
    return input_error(origin + ": " + e.what());
  }
}

Result<ImageRecord> read_record(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const json value, util::read_json_file(path));
  return record_from_json(value, path.string());
}

Status write_record(const std::filesystem::path& path, const ImageRecord& record) {
  return util::write_json_file(path, to_json(record));
}

} // namespace envlock::importer
