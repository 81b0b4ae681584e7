// The importer's configuration, /etc/envlock/importer.yaml (config_choice.hpp says when
// $ENVLOCK_IMPORTER_CONFIG may choose another file): which locks may be imported, what to do with
// an image none of them pins, where the caches are and how big one may grow, where pre-distributed
// .sqsh files are and what a corrupt one means, the audit log, the provenance key and the registry
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

// What a pre-distributed .sqsh whose sha256 differs from its record means for the job: it is
// served from the shared cache or the registry (fallback, the default), or fails (refuse).
enum class OnCorrupt { fallback, refuse };

// Whom the configuration speaks for: the operator (the system file read under a job, whose paths
// must be safe from the job's user) or whoever ran the importer by hand.
enum class Trust { caller, system };

struct ImporterConfig {
  std::filesystem::path file; // where it was read from
  std::string choice;         // what chose the file (config_choice.hpp)
  Trust trust = Trust::caller;
  std::vector<std::filesystem::path> locks; // lock files, or folders of *.lock.json
  Policy policy = Policy::refuse;
  std::string policy_origin;          // "FILE:LINE:COL", or "FILE (default)"
  std::filesystem::path cache;        // the cache folder (each user gets CACHE/UID)
  std::uint64_t cache_max_bytes = 0;  // 0: no limit
  std::filesystem::path shared_cache; // root's cache shared by all users; empty: none
  std::vector<std::filesystem::path> sqsh_dirs;
  OnCorrupt on_corrupt = OnCorrupt::fallback;
  std::filesystem::path log;        // the audit log (audit.hpp); empty: syslog only
  std::filesystem::path public_key; // empty: no provenance check
  // With public_key: the provenance may also come from the image's attestations in its registry
  // (`envlock attest fetch`), and an image the locks build is refused without it.
  bool require_signed = false;
  oci::RegistryOptions registry;
  int lock_timeout_seconds = 600;            // how long a get waits for another's import
  std::int64_t hold_expiry_seconds = 604800; // a hold older than this no longer protects a file
};

// Parses the text of a configuration; relative paths are taken from the file's folder. Input
// errors (exit 2) are "FILE:LINE:COL: message" with the line and a caret (not for a line holding
// one of `secrets`).
Result<ImporterConfig> parse_config(std::string_view text, const std::filesystem::path& file,
                                    util::SecretValues secrets = {});

// Reads and parses the file (links followed; a FIFO, a device or a socket refused), hiding the
// lines that hold a secret envlock knows (oci::known_secrets()); an input error names it when it
// cannot be read.
Result<ImporterConfig> read_config(const std::filesystem::path& file);

} // namespace envlock::importer
