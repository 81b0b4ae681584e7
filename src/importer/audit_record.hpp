// The importer's audit line (envlock.importer-audit/v1, docs/formats/importer-audit.md): one JSON
// object per line, one line per get, release, check or fill, appended to the log importer.yaml's
// `log:` names and sent to syslog. It says when, where (node), for whom (job, step, user), what
// was asked (the image URI), what answered it (the pin and its lock, the .sqsh and its sha256 and
// where it came from), how it ended (outcome, exit code, message) and every warning on the way:
// what `envlock importer log --job 1234` answers "which image did job 1234 run?" from.
#pragma once

#include "formats/schemas.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::importer {

inline constexpr const char* k_audit_schema = formats::k_importer_audit_schema;

// How a command ended: "ok", "refused" (a check failed: exit 1) or "failed" (exit 2 or 3).
enum class AuditOutcome { ok, refused, failed };

// "ok", "refused" or "failed".
const char* to_string(AuditOutcome outcome);

struct AuditEntry {
  std::string time; // RFC 3339 UTC, milliseconds: 2026-12-02T10:04:05.123Z
  std::string node; // SLURMD_NODENAME, else the host name
  std::string job;  // SLURM_JOB_ID; empty outside a job
  std::string step; // SLURM_STEP_ID; empty outside a job
  std::uint32_t uid = 0;
  std::string user;    // the uid's name; empty when it has none
  std::string command; // "get", "release", "check" or "fill"
  std::string image;   // the URI asked for; empty for release
  std::string config;  // the configuration file read
  // The pin that answered (empty role: none, e.g. an unpinned image refused).
  std::string pin_role; // "base_image", "image", "recipe.images[LINE]" or "none"
  std::string pin_lock; // the lock's path
  std::string pin_lock_sha256;
  std::string pin_digest;          // the digest the lock pins
  std::string pin_manifest_digest; // the platform manifest squashed
  std::string sqsh_path;           // what get printed (empty when it printed nothing)
  std::string sqsh_sha256;
  std::string sqsh_source; // "shared", "cached", "imported", "pre-distributed", "given path"
  AuditOutcome outcome = AuditOutcome::ok;
  int exit_code = 0;
  std::string message; // the error, when it did not end ok
  std::vector<std::string> warnings;
  bool operator==(const AuditEntry&) const = default;
};

// The entry as its JSON object (every key present; sorted, as nlohmann sorts them).
nlohmann::json to_json(const AuditEntry& entry);

// The entry from its JSON object: another schema, a missing or mistyped field and an unknown key
// are input errors naming `origin` and the field ("LOG:12: pin.role: missing").
Result<AuditEntry> audit_from_json(const nlohmann::json& value, const std::string& origin);

// The entry as one line of compact JSON, with its newline.
std::string audit_line(const AuditEntry& entry);

} // namespace envlock::importer
