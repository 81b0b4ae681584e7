// The resume check (`--check resume`, docs/manual/resume.md): one BF16 training step as a
// computation check, then a continuous run, a first half that saves a checkpoint, and a new
// process that resumes from it, compared against the lock's `expect.resume` tolerances.
#pragma once

#include "util/result.hpp"
#include "verify/check.hpp"
#include "verify/resume/tolerance.hpp"
#include "verify/run_context.hpp"

#include <filesystem>
#include <vector>

namespace envlock::verify {

// What every resume run shares: the work folder, the token file, the plan and tolerances.
struct ResumeWork {
  std::filesystem::path dir;
  std::filesystem::path data; // the indexed dataset prefix
  ResumeTolerance tolerance;
  std::filesystem::path environment_python; // the checked environment's interpreter, if any
};

// The token file: --data PREFIX (checked by check_training_options), else the default sample
// (sample-data.md) written to `work_dir` as sample_text_document.
Result<std::filesystem::path> prepare_resume_data(const ResumeOptions& options,
                                                  const std::filesystem::path& work_dir);

// Runs the check. Results: resume.compute, resume.runs, resume.loss, resume.lr, resume.params
// (the bundled trainer) or resume.runs, resume.loss, resume.lr (--train-cmd); skipped in offline
// mode. What keeps the check from running (no Python, no PyTorch or no GPU: the trainer's own
// words; a work folder that cannot be made) is the first check failed with that reason, the
// others skipped: the check never hides the others. Its options are checked before any check
// runs (check_training_options).
std::vector<CheckResult> run_resume_check(const RunContext& context);

// --train-cmd: the user's command three times (continuous, first, resumed), its losses read from
// its output with --loss-pattern.
std::vector<CheckResult> run_train_cmd_check(const ResumeOptions& options, const ResumeWork& work);

// The checks of a resume check that could not run: the first failed with `reason`, the others
// skipped ("not run: resume.compute failed").
std::vector<CheckResult> resume_not_run(const ResumeOptions& options, const std::string& reason);

} // namespace envlock::verify
