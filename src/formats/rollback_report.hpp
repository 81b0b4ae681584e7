// The rollback check's report (envlock.rollback-report/v1, docs/formats/rollback-report.md):
// whether the previous environment can still be retrieved, one check per piece (each image
// digest in the registry, the .sqsh on disk), each naming the record it came from. What changes
// from run to run (the time, the host) lives in `run`. `envlock handover --rollback` reads it.
#pragma once

#include "formats/record.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::formats {

inline constexpr const char* k_rollback_report_schema = "envlock.rollback-report/v1";
inline constexpr const char* k_rollback_report_file = "rollback-report.json";

// pass; fail (the piece is gone or differs); error (it could not be asked: the registry did not
// answer, refused the credentials, or answered 5xx).
enum class RollbackOutcome { pass, fail, error };

// "pass", "fail", "error"
const char* to_string(RollbackOutcome outcome);

struct RollbackCheck {
  std::string id;     // "base_image", "base_image.platform", "recipe.images[2]", "image", "sqsh"
  std::string target; // NAME@DIGEST, or the .sqsh's path
  RollbackOutcome outcome = RollbackOutcome::fail;
  std::string found;  // what was seen, on a pass
  std::string reason; // why it failed or could not be checked
  std::string source; // the record and field that name it: "old.lock.json: base_image.digest"
  bool operator==(const RollbackCheck&) const = default;
};

struct RollbackReport {
  std::string tool_version;
  std::string previous_lock;        // file name
  std::string previous_lock_sha256; // of the lock's canonical bytes
  std::string previous_base_image;  // NAME@DIGEST
  std::string previous_image;       // NAME@DIGEST; "" when no record names it (null)
  std::string previous_sqsh;        // file name; "" when no record names it (null)
  std::string previous_sqsh_sha256;
  std::string current_lock; // file name; "" without --lock (null)
  std::string current_lock_sha256;
  std::vector<RollbackCheck> checks;
  std::string checked_at; // UTC, RFC 3339, seconds (volatile: `run`)
  std::string hostname;   // volatile
  double seconds = 0;     // volatile
  bool operator==(const RollbackReport&) const = default;
};

// fail when a check failed; else error when one could not be checked; else pass.
RollbackOutcome outcome_of(const RollbackReport& report);

// How many checks have `outcome`.
std::size_t count_outcome(const RollbackReport& report, RollbackOutcome outcome);

nlohmann::json to_json(const RollbackReport& report);

// Reads a rollback report; `outcome` and `summary` must agree with the checks. An input error
// names `origin` and the field.
template <>
Result<RollbackReport> from_json<RollbackReport>(const nlohmann::json& value,
                                                 const std::string& origin);

Result<RollbackReport> read_rollback_report(const std::filesystem::path& path);
Status write_rollback_report(const std::filesystem::path& path, const RollbackReport& report);

} // namespace envlock::formats
