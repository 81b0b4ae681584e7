// The importer's configuration, /etc/envlock/importer.yaml (or $ENVLOCK_IMPORTER_CONFIG):
// which locks may be imported, what to do with an image none of them pins, where the cache is and
// how big it may grow, where pre-distributed .sqsh files are, the provenance key and the registry
// options. docs/formats/importer-config.md describes every key. Read with the manifest module's
// machinery, so a mistake is reported as FILE:LINE:COL with the line and a caret.
#pragma once

#include "oci/registry.hpp"
#include "util/result.hpp"
#include "util/secret_values.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::importer {

inline constexpr const char* k_default_config = "/etc/envlock/importer.yaml";
inline constexpr const char* k_config_variable = "ENVLOCK_IMPORTER_CONFIG";

// What happens to an image no lock pins.
enum class Policy { refuse, warn };

// "refuse" or "warn".
const char* to_string(Policy policy);

struct ImporterConfig {
  std::filesystem::path file;               // where it was read from
  std::vector<std::filesystem::path> locks; // lock files, or folders of *.lock.json
  Policy policy = Policy::refuse;
  std::string policy_origin;         // "FILE:LINE:COL", or "FILE (default)"
  std::filesystem::path cache;       // the cache folder (each user gets CACHE/UID)
  std::uint64_t cache_max_bytes = 0; // 0: no limit
  std::vector<std::filesystem::path> sqsh_dirs;
  std::filesystem::path public_key; // empty: no provenance check
  oci::RegistryOptions registry;
  int lock_timeout_seconds = 600;            // how long a get waits for another's import
  std::int64_t hold_expiry_seconds = 604800; // a hold older than this no longer protects a file
};

// Parses the text of a configuration; relative paths are taken from the file's folder. Input
// errors (exit 2) are "FILE:LINE:COL: message" with the line and a caret (not for a line holding
// one of `secrets`).
Result<ImporterConfig> parse_config(std::string_view text, const std::filesystem::path& file,
                                    util::SecretValues secrets = {});

// The configuration file to read: $ENVLOCK_IMPORTER_CONFIG when set and not empty, else
// /etc/envlock/importer.yaml.
std::filesystem::path config_path();

// Reads and parses the file (links followed; a FIFO, a device or a socket refused), hiding the
// lines that hold a secret envlock knows (oci::known_secrets()); an input error names it when it
// cannot be read.
Result<ImporterConfig> read_config(const std::filesystem::path& file);

} // namespace envlock::importer
