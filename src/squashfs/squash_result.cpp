#include "squashfs/squash_result.hpp"

#include "util/fs.hpp"
#include "util/json.hpp"

namespace envlock::squashfs {

using nlohmann::json;

nlohmann::json to_json(const SquashResult& r) {
  return {
      {"schema", k_result_schema},
      {"image",
       {{"reference", r.image_reference},
        {"manifest_digest", r.manifest_digest},
        {"platform", r.platform}}},
      {"sqsh", {{"file", r.file_name}, {"sha256", r.sha256}, {"size", r.size}}},
      {"tree_digest", r.tree_digest},
      {"producer", r.producer},
      {"enroot",
       {{"compatible_with", k_enroot_compat},
        {"squash_options", r.squash_options},
        {"source_date_epoch", r.source_date_epoch},
        {"locale", lock::to_string(r.locale)}}},
      {"squashfs_tools",
       {{"version", r.squashfs_tools_version}, {"mksquashfs_arguments", r.mksquashfs_arguments}}},
      {"superblock", to_json(r.superblock)},
  };
}

namespace {

Result<json> field(const json& value, const std::string& path, const std::string& origin,
                   json::value_t type) {
  const json* cur = &value;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t dot = path.find('.', start);
    const std::string key = path.substr(start, dot - start);
    if (!cur->is_object() || !cur->contains(key)) {
      return input_error(origin + ": " + path + ": missing");
    }
    cur = &(*cur)[key];
    if (dot == std::string::npos) {
      break;
    }
    start = dot + 1;
  }
  const bool number_ok = type == json::value_t::number_unsigned && cur->is_number_unsigned();
  if (cur->type() != type && !number_ok) {
    return input_error(origin + ": " + path + ": wrong type");
  }
  return *cur;
}

} // namespace

Result<SquashResult> result_from_json(const json& value, const std::string& origin) {
  using vt = json::value_t;
  ENVLOCK_TRY_ASSIGN(const json schema, field(value, "schema", origin, vt::string));
  if (schema != k_result_schema) {
    return input_error(origin + ": schema: expected '" + std::string(k_result_schema) + "', got '" +
                       schema.get<std::string>() + "'");
  }
  SquashResult r;
  ENVLOCK_TRY_ASSIGN(const json sha, field(value, "sqsh.sha256", origin, vt::string));
  ENVLOCK_TRY_ASSIGN(const json size, field(value, "sqsh.size", origin, vt::number_unsigned));
  ENVLOCK_TRY_ASSIGN(const json tree, field(value, "tree_digest", origin, vt::string));
  ENVLOCK_TRY_ASSIGN(const json file, field(value, "sqsh.file", origin, vt::string));
  ENVLOCK_TRY_ASSIGN(const json ref, field(value, "image.reference", origin, vt::string));
  ENVLOCK_TRY_ASSIGN(const json digest, field(value, "image.manifest_digest", origin, vt::string));
  r.sha256 = sha.get<std::string>();
  r.size = size.get<std::uint64_t>();
  r.tree_digest = tree.get<std::string>();
  r.file_name = file.get<std::string>();
  r.image_reference = ref.get<std::string>();
  r.manifest_digest = digest.get<std::string>();
  // Written by every envlock, but optional to readers: they describe how the image was made.
  const auto image = value.find("image");
  if (image != value.end() && image->is_object() && image->contains("platform") &&
      (*image)["platform"].is_string()) {
    r.platform = (*image)["platform"].get<std::string>();
  }
  const auto enroot = value.find("enroot");
  if (enroot != value.end() && enroot->is_object()) {
    if (enroot->contains("squash_options") && (*enroot)["squash_options"].is_string()) {
      r.squash_options = (*enroot)["squash_options"].get<std::string>();
    }
    if (enroot->contains("source_date_epoch") &&
        (*enroot)["source_date_epoch"].is_number_integer()) {
      r.source_date_epoch = (*enroot)["source_date_epoch"].get<std::int64_t>();
    }
  }
  return r;
}

Result<SquashResult> read_result(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const json value, util::read_json_file(path));
  return result_from_json(value, path.string());
}

Status write_result(const std::filesystem::path& path, const SquashResult& result) {
  return util::write_json_file(path, to_json(result));
}

std::filesystem::path result_path_for(const std::filesystem::path& sqsh) {
  std::string name = sqsh.filename().string();
  if (name.ends_with(".sqsh")) {
    name.resize(name.size() - 5);
  }
  return sqsh.parent_path() / (name + ".squashfs-result.json");
}

std::vector<std::filesystem::path> result_candidates(const std::filesystem::path& sqsh) {
  return {result_path_for(sqsh), sqsh.parent_path() / "squashfs-result.json"};
}

Result<FoundResult> find_result_beside(const std::filesystem::path& sqsh) {
  std::string looked;
  for (const auto& candidate : result_candidates(sqsh)) {
    looked += (looked.empty() ? "" : ", ") + candidate.string();
    if (!util::path_exists(candidate)) {
      continue;
    }
    ENVLOCK_TRY_ASSIGN(SquashResult result, read_result(candidate));
    if (result.file_name == sqsh.filename().string()) {
      return FoundResult{candidate, std::move(result)};
    }
    looked += " (it describes " + result.file_name + ")";
  }
  return input_error("no squashfs result describes " + sqsh.string() + " (looked for " + looked +
                     "); give --result FILE");
}

} // namespace envlock::squashfs
