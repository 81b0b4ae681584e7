// DCGM's quick diagnostic, driven, not reimplemented: `dcgmi diag -r 1 --json` where dcgmi is
// installed. Its JSON ("DCGM Diagnostic" in DCGM 4, "DCGM GPU Diagnostic" before) lists test
// categories, their tests and, per test, one result per GPU: {"status": "Pass"|"Fail"|"Warn"|
// "Skip", "entity_id" or "gpu_id", "warnings": [{"warning": TEXT}], "info": [...]}.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace envlock::node::health {

enum class RunDcgm { yes, no };

// The command envlock runs.
inline constexpr const char* k_dcgm_command = "dcgmi diag -r 1 --json";

// {"value": [{"category", "test", "gpu" (or null), "status", "warning"}...], "source": COMMAND};
// {"value": null, "source": COMMAND, "skipped": WHY} when dcgmi is not installed or `run` is no;
// missing when it ran but gave no result ("exit status 3: ...", "no JSON in its output").
nlohmann::json run_dcgm_diag(RunDcgm run);

// The results of dcgmi's JSON output `text`; missing as above when it holds none.
nlohmann::json parse_dcgm_diag(const std::string& text, int exit_code);

} // namespace envlock::node::health
