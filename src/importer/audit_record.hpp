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
// The schema of the lines written before job_claimed, sqsh.checked and waits; still read.
inline constexpr const char* k_audit_schema_v1 = formats::k_importer_audit_schema_v1;

// How a command ended: "ok", "refused" (a check failed: exit 1) or "failed" (exit 2 or 3).
enum class AuditOutcome { ok, refused, failed };

// "ok", "refused" or "failed".
const char* to_string(AuditOutcome outcome);

struct AuditEntry {
  std::string time; // RFC 3339 UTC, milliseconds: 2026-12-02T10:04:05.123Z
  std::string node; // SLURMD_NODENAME, else the host name
  std::string job;  // SLURM_JOB_ID; empty outside a job
  std::string step; // SLURM_STEP_ID; empty outside a job
  // True when job and step are what the caller's own environment said (a user's get or release):
  // the caller's claim, which they could have set to anything; false for root's steps, whose
  // environment slurmd (or root) made.
  bool job_claimed = false;
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
  // How sqsh_sha256 was known: "hashed" (the whole file read now), "root stamp" (root's verified
  // stamp of a root-owned file whose identity is unchanged), "caller stamp" (a stamp in the
  // caller's own cache: their claim, not rehashed), "record" (an import's own result), or empty.
  std::string sqsh_checked;
  std::vector<std::string> waits; // each wait for another command: what, and for how long
  AuditOutcome outcome = AuditOutcome::ok;
  int exit_code = 0;
  std::string message; // the error, when it did not end ok
  std::vector<std::string> warnings;
  bool operator==(const AuditEntry&) const = default;
};

// The entry as its JSON object (every key present; sorted, as nlohmann sorts them).
nlohmann::json to_json(const AuditEntry& entry);

// The entry from its JSON object (v2, or v1 without the keys v2 added): another schema, a missing
// or mistyped field and an unknown key are input errors naming `origin` and the field ("LOG:12:
// pin.role: missing").
Result<AuditEntry> audit_from_json(const nlohmann::json& value, const std::string& origin);

// The most bytes one line may take (its newline included): a longer entry has its warnings,
// waits and message shortened, saying so.
inline constexpr std::size_t k_max_audit_line = std::size_t{16} * 1024;

// The entry as one line of compact JSON, with its newline, at most k_max_audit_line bytes.
std::string audit_line(const AuditEntry& entry);

} // namespace envlock::importer
