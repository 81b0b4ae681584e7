// The training processes of the resume check: running one and timing it, and the
// "resume.runs" result that reports each run's wall time.
#pragma once

#include "util/process.hpp"
#include "util/result.hpp"
#include "verify/check.hpp"
#include "verify/resume/compare.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::verify {

struct TimedRun {
  std::string name; // "continuous", "first", "resumed"
  double seconds = 0;
  util::ProcessResult process;
};

// Runs argv with the deterministic settings added to the environment (CUBLAS_WORKSPACE_CONFIG,
// PYTHONHASHSEED, PYTHONUNBUFFERED) and `env`. Fails only when the program cannot be started.
Result<TimedRun> run_timed(std::string name, const std::vector<std::string>& argv,
                           const std::map<std::string, std::string>& env = {});

// The trainer's own error ("envlock-resume: error: ..." with exit status 2 or 3) as an Error of
// that exit status, prefixed with `check` ("resume check: "); nothing for any other outcome.
std::optional<Error> trainer_error(const util::ProcessResult& process,
                                   std::string_view check = "resume check");

// The last non-empty line of the run's stderr (or stdout), for a reason.
std::string last_line(const util::ProcessResult& process);

// "resume.runs": passes when every run exited 0; its figures are the wall times ("<name>_s").
CheckResult runs_result(const std::vector<TimedRun>& runs, int gpus);

// The comparisons after the runs: loss and learning rate from the three logs, the parameters
// when both dumps are given. Every comparison is skipped, naming the run, when a run failed; a
// log that cannot be read fails its comparison.
std::vector<CheckResult> compare_runs(const std::vector<TimedRun>& runs,
                                      const std::vector<Result<RunLog>>& logs,
                                      const ResumeTolerance& tolerance,
                                      const std::filesystem::path& continuous_params,
                                      const std::filesystem::path& resumed_params);

} // namespace envlock::verify
