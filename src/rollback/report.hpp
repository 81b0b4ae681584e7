// The rollback check's report (envlock.rollback-report/v1, docs/formats/rollback-report.md):
// whether the previous environment can still be retrieved, one check per piece (each image
// digest in the registry, the .sqsh on disk), each naming the record it came from. Canonical
// JSON; what changes from run to run (the time, the host) lives in `run`.
#pragma once

#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::rollback {

inline constexpr const char* k_report_schema = "envlock.rollback-report/v1";

// pass; fail (the piece is gone or differs); error (it could not be asked: the registry did not
// answer, refused the credentials, or answered 5xx).
enum class Outcome { pass, fail, error };

// "pass", "fail", "error"
const char* to_string(Outcome outcome);

struct Check {
  std::string id;     // "base_image", "base_image.platform", "recipe.images[2]", "image", "sqsh"
  std::string target; // NAME@DIGEST, or the .sqsh's path
  Outcome outcome = Outcome::fail;
  std::string found;  // what was seen, on a pass
  std::string reason; // why it failed or could not be checked
  std::string source; // the record and field that name it: "old.lock.json: base_image.digest"
};

struct Report {
  std::string tool_version;
  std::string previous_lock;        // file name
  std::string previous_lock_sha256; // of the lock's canonical bytes
  std::string previous_base_image;  // NAME@DIGEST
  std::string previous_image;       // NAME@DIGEST; "" when no record names it
  std::string previous_sqsh;        // file name; "" when no record names it
  std::string previous_sqsh_sha256;
  std::string current_lock; // file name; "" without --lock
  std::string current_lock_sha256;
  std::vector<Check> checks;
  std::string checked_at; // UTC, RFC 3339, seconds (volatile: `run`)
  std::string hostname;   // volatile
  double seconds = 0;     // volatile
};

// fail when a check failed; else error when one could not be checked; else pass.
Outcome outcome_of(const Report& report);

// 0 pass, 1 fail, 3 error.
ExitCode exit_code_of(const Report& report);

nlohmann::json report_to_json(const Report& report);

// One line per check ("PASS  base_image  TARGET: FOUND", "FAIL  image  REASON"), then the verdict.
std::string report_to_text(const Report& report);

} // namespace envlock::rollback
