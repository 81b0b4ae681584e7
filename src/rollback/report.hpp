// The rollback check's report: the record is formats/rollback_report.hpp (its type and JSON,
// envlock.rollback-report/v1); here, its exit code and its table.
#pragma once

#include "formats/rollback_report.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace envlock::rollback {

using Check = formats::RollbackCheck;
using Outcome = formats::RollbackOutcome;
using Report = formats::RollbackReport;
using formats::outcome_of;
using formats::to_string;

// 0 pass, 1 fail, 3 error.
ExitCode exit_code_of(const Report& report);

// The report as JSON (docs/formats/rollback-report.md).
inline nlohmann::json report_to_json(const Report& report) {
  return formats::to_json(report);
}

// One line per check ("PASS  base_image  TARGET: FOUND", "FAIL  image  REASON"), then the verdict.
std::string report_to_text(const Report& report);

} // namespace envlock::rollback
