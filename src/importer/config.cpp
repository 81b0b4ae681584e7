#include "importer/config.hpp"

#include "manifest/reader.hpp"
#include "manifest/source_file.hpp"
#include "manifest/yaml_load.hpp"
#include "oci/known_secrets.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace envlock::importer {

namespace fs = std::filesystem;
using manifest::Field;
using manifest::Reader;

namespace {

constexpr std::uintmax_t k_max_config_bytes = std::uintmax_t{1024} * 1024;

fs::path resolve(const fs::path& base, const std::string& text) {
  const fs::path path(text);
  return path.is_absolute() ? path.lexically_normal() : (base / path).lexically_normal();
}

Result<std::vector<fs::path>> path_list(const Reader& reader, const Field& field,
                                        const fs::path& base) {
  ENVLOCK_TRY_ASSIGN(const auto texts, reader.string_list(field));
  std::vector<fs::path> out;
  for (const auto& text : texts) {
    if (text.empty()) {
      return reader.error(field, "'" + field.path + "' must not hold an empty path");
    }
    out.push_back(resolve(base, text));
  }
  return out;
}

std::string where(const manifest::SourceText& source, const Field& field) {
  const auto at = manifest::location_of(field.value);
  if (at.line < 0) {
    return source.filename();
  }
  return source.filename() + ":" + std::to_string(at.line + 1) + ":" +
         std::to_string(at.column + 1);
}

Result<std::int64_t> positive(const Reader& reader, const Field& field, std::int64_t max) {
  ENVLOCK_TRY_ASSIGN(const std::int64_t value, reader.integer(field));
  if (value < 1 || value > max) {
    return reader.error(field, "'" + field.path + "' must be between 1 and " + std::to_string(max) +
                                   ", got " + std::to_string(value));
  }
  return value;
}

Status read_registry(const Reader& reader, const Field& field, const fs::path& base,
                     oci::RegistryOptions& options) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(
      field, {"insecure", "ca_file", "timeout_seconds", "deadline_seconds", "attempts"}));
  if (const auto insecure = reader.find(field, "insecure")) {
    ENVLOCK_TRY_ASSIGN(options.insecure_registries, reader.string_list(*insecure));
  }
  if (const auto ca = reader.find(field, "ca_file")) {
    ENVLOCK_TRY_ASSIGN(const std::string text, reader.non_empty_string(*ca));
    options.ca_file = resolve(base, text).string();
  }
  if (const auto timeout = reader.find(field, "timeout_seconds")) {
    ENVLOCK_TRY_ASSIGN(const std::int64_t seconds, positive(reader, *timeout, 3600));
    options.timeout = std::chrono::milliseconds(seconds * 1000);
  }
  if (const auto deadline = reader.find(field, "deadline_seconds")) {
    ENVLOCK_TRY_ASSIGN(const std::int64_t seconds, positive(reader, *deadline, 86400));
    options.deadline = std::chrono::milliseconds(seconds * 1000);
  }
  if (const auto attempts = reader.find(field, "attempts")) {
    ENVLOCK_TRY_ASSIGN(const std::int64_t n, positive(reader, *attempts, 20));
    options.max_attempts = static_cast<int>(n);
  }
  return {};
}

Status read_keys(const manifest::SourceText& source, const Reader& reader, const Field& root,
                 const fs::path& base, ImporterConfig& config) {
  ENVLOCK_TRY(
      reader.only_keys(root, {"locks", "policy", "cache", "cache_max_bytes", "shared_cache",
                              "sqsh_dirs", "on_corrupt", "log", "public_key", "require_signed",
                              "registry", "lock_timeout_seconds", "hold_expiry_seconds"}));
  ENVLOCK_TRY_ASSIGN(const Field locks, reader.require(root, "locks"));
  ENVLOCK_TRY_ASSIGN(config.locks, path_list(reader, locks, base));
  if (config.locks.empty()) {
    return reader.error(locks, "'locks' must name at least one lock file or folder");
  }
  config.policy_origin = source.filename() + " (default)";
  if (const auto policy = reader.find(root, "policy")) {
    ENVLOCK_TRY_ASSIGN(const std::string text, reader.string(*policy));
    if (text == "refuse") {
      config.policy = Policy::refuse;
    } else if (text == "warn") {
      config.policy = Policy::warn;
    } else {
      return reader.format_error(*policy, "refuse or warn");
    }
    config.policy_origin = where(source, *policy);
  }
  ENVLOCK_TRY_ASSIGN(const Field cache, reader.require(root, "cache"));
  ENVLOCK_TRY_ASSIGN(const std::string cache_text, reader.non_empty_string(cache));
  config.cache = resolve(base, cache_text);
  if (const auto max = reader.find(root, "cache_max_bytes")) {
    ENVLOCK_TRY_ASSIGN(const std::int64_t bytes, reader.integer(*max));
    if (bytes < 0) {
      return reader.error(*max, "'cache_max_bytes' must be 0 (no limit) or more, got " +
                                    std::to_string(bytes));
    }
    config.cache_max_bytes = static_cast<std::uint64_t>(bytes);
  }
  if (const auto shared = reader.find(root, "shared_cache")) {
    ENVLOCK_TRY_ASSIGN(const std::string text, reader.non_empty_string(*shared));
    config.shared_cache = resolve(base, text);
  }
  if (const auto dirs = reader.find(root, "sqsh_dirs")) {
    ENVLOCK_TRY_ASSIGN(config.sqsh_dirs, path_list(reader, *dirs, base));
  }
  if (const auto corrupt = reader.find(root, "on_corrupt")) {
    ENVLOCK_TRY_ASSIGN(const std::string text, reader.string(*corrupt));
    if (text == "fallback") {
      config.on_corrupt = OnCorrupt::fallback;
    } else if (text == "refuse") {
      config.on_corrupt = OnCorrupt::refuse;
    } else {
      return reader.format_error(*corrupt, "fallback or refuse");
    }
  }
  if (const auto log = reader.find(root, "log")) {
    ENVLOCK_TRY_ASSIGN(const std::string text, reader.non_empty_string(*log));
    config.log = resolve(base, text);
  }
  if (const auto key = reader.find(root, "public_key")) {
    ENVLOCK_TRY_ASSIGN(const std::string text, reader.non_empty_string(*key));
    config.public_key = resolve(base, text);
  }
  if (const auto required = reader.find(root, "require_signed")) {
    ENVLOCK_TRY_ASSIGN(const nlohmann::json value, reader.json(*required));
    if (!value.is_boolean()) {
      return reader.type_error(*required, "true or false");
    }
    config.require_signed = value.get<bool>();
    if (config.require_signed && config.public_key.empty()) {
      return reader.error(*required, "'require_signed' needs 'public_key': the key the images' "
                                     "provenance must be signed by");
    }
  }
  if (const auto registry = reader.find(root, "registry")) {
    ENVLOCK_TRY(read_registry(reader, *registry, base, config.registry));
  }
  if (const auto wait = reader.find(root, "lock_timeout_seconds")) {
    ENVLOCK_TRY_ASSIGN(const std::int64_t seconds, positive(reader, *wait, 86400));
    config.lock_timeout_seconds = static_cast<int>(seconds);
  }
  if (const auto expiry = reader.find(root, "hold_expiry_seconds")) {
    ENVLOCK_TRY_ASSIGN(config.hold_expiry_seconds, positive(reader, *expiry, 31536000));
  }
  return {};
}

} // namespace

const char* to_string(Policy policy) {
  return policy == Policy::warn ? "warn" : "refuse";
}

Result<ImporterConfig> parse_config(std::string_view text, const fs::path& file,
                                    util::SecretValues secrets) {
  const manifest::SourceText source(text, file.string(), std::move(secrets));
  if (const auto bad = util::invalid_utf8_at(text)) {
    return source.error_at({}, "invalid UTF-8 at byte " + std::to_string(*bad) +
                                   "; the configuration is UTF-8 text");
  }
  ENVLOCK_TRY_ASSIGN(const YAML::Node document,
                     manifest::load_yaml(source, "importer configuration"));
  const Reader reader(source);
  ImporterConfig config;
  config.file = file;
  const fs::path base = fs::absolute(file).parent_path();
  ENVLOCK_TRY(read_keys(source, reader, manifest::root_field(document), base, config));
  return config;
}

Result<ImporterConfig> read_config(const fs::path& file) {
  ENVLOCK_TRY_ASSIGN(
      const std::string text,
      manifest::read_source_file(file, k_max_config_bytes, manifest::LinkRule::anywhere));
  return parse_config(text, file, oci::known_secrets());
}

} // namespace envlock::importer
