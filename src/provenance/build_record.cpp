#include "provenance/build_record.hpp"

#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace envlock::provenance {

namespace {

using nlohmann::json;

// Reads dotted fields of one JSON object; errors name the origin and the field.
class Fields {
public:
  Fields(const json& root, std::string origin) : m_root(root), m_origin(std::move(origin)) {}

  Result<const json*> at(const std::string& path) const {
    const json* node = &m_root;
    for (const std::string& key : util::split(path, '.')) {
      if (!node->is_object() || !node->contains(key)) {
        return error(path, "missing");
      }
      node = &node->at(key);
    }
    return node;
  }

  Result<std::string> text(const std::string& path) const {
    ENVLOCK_TRY_ASSIGN(const json* node, at(path));
    if (!node->is_string()) {
      return error(path, "must be a string");
    }
    return node->get<std::string>();
  }

  Result<std::string> hex64(const std::string& path) const {
    ENVLOCK_TRY_ASSIGN(std::string value, text(path));
    if (value.size() != 64 || !util::is_hex(value) || util::to_lower(value) != value) {
      return error(path, "must be 64 lowercase hex digits");
    }
    return value;
  }

  Result<std::string> digest(const std::string& path) const {
    ENVLOCK_TRY_ASSIGN(std::string value, text(path));
    const std::string hex = value.size() > 7 ? value.substr(7) : "";
    if (value.rfind("sha256:", 0) != 0 || hex.size() != 64 || !util::is_hex(hex) ||
        util::to_lower(hex) != hex) {
      return error(path, "must be sha256:<64 hex>, not '" + value + "'");
    }
    return value;
  }

  Error error(const std::string& path, const std::string& what) const {
    return input_error(m_origin + ": " + path + ": " + what);
  }

private:
  const json& m_root;
  std::string m_origin;
};

Status read_fields(const Fields& f, BuildRecord& r) {
  ENVLOCK_TRY_ASSIGN(r.repository, f.text("image.repository"));
  ENVLOCK_TRY_ASSIGN(r.tag, f.text("image.tag"));
  ENVLOCK_TRY_ASSIGN(r.digest, f.digest("image.digest"));
  ENVLOCK_TRY_ASSIGN(const json* pushed, f.at("pushed"));
  if (!pushed->is_boolean()) {
    return f.error("pushed", "must be true or false");
  }
  r.pushed = pushed->get<bool>();
  ENVLOCK_TRY_ASSIGN(r.builder_name, f.text("builder.name"));
  ENVLOCK_TRY_ASSIGN(r.builder_version, f.text("builder.version"));
  ENVLOCK_TRY_ASSIGN(r.lock_sha256, f.hex64("lock_sha256"));
  ENVLOCK_TRY_ASSIGN(r.dockerfile_sha256, f.hex64("dockerfile_sha256"));
  ENVLOCK_TRY_ASSIGN(r.context_sha256, f.hex64("context_sha256"));
  ENVLOCK_TRY_ASSIGN(const json* args, f.at("build_args"));
  if (!args->is_object()) {
    return f.error("build_args", "must be an object");
  }
  for (const auto& [name, value] : args->items()) {
    if (!value.is_string()) {
      return f.error("build_args." + name, "must be a string");
    }
    r.build_args[name] = value.get<std::string>();
  }
  ENVLOCK_TRY_ASSIGN(const json* epoch, f.at("source_date_epoch"));
  if (!epoch->is_number_integer()) {
    return f.error("source_date_epoch", "must be an integer");
  }
  r.source_date_epoch = epoch->get<std::int64_t>();
  ENVLOCK_TRY_ASSIGN(r.log_path, f.text("log.path"));
  ENVLOCK_TRY_ASSIGN(r.log_sha256, f.hex64("log.sha256"));
  ENVLOCK_TRY_ASSIGN(r.started_at, f.text("started_at"));
  ENVLOCK_TRY_ASSIGN(r.finished_at, f.text("finished_at"));
  return {};
}

} // namespace

Result<BuildRecord> parse_build_record(std::string_view text, const std::string& origin) {
  ENVLOCK_TRY_ASSIGN(const json root, util::parse_json(text, origin));
  const Fields fields(root, origin);
  if (!root.is_object()) {
    return input_error(origin + ": not a build result (a JSON object)");
  }
  ENVLOCK_TRY_ASSIGN(const std::string schema, fields.text("schema"));
  if (schema != build::k_build_result_schema) {
    return fields.error("schema", "'" + schema + "' is not " + build::k_build_result_schema);
  }
  BuildRecord record;
  ENVLOCK_TRY(read_fields(fields, record));
  record.file_sha256 = util::sha256_hex(text);
  return record;
}

Result<BuildRecord> read_build_record(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const std::string text,
                     util::read_file_limited(path, std::uintmax_t{1} << 20));
  ENVLOCK_TRY_ASSIGN(BuildRecord record, parse_build_record(text, path.string()));
  record.file_name = path.filename().string();
  return record;
}

} // namespace envlock::provenance
