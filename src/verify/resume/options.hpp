// The command-line options of the resume and checkpoint-load checks, added to the verifier's.
#pragma once

#include "util/result.hpp"
#include "verify/options.hpp"

#include <CLI/CLI.hpp>

namespace envlock::verify {

// Adds --data, --gpus, --train-cmd, --loss-pattern, --resume-script, --python, --work-dir and
// --resume-args, storing them in `options` (which must outlive parsing).
void add_resume_options(CLI::App& app, ResumeOptions& options);

// Adds --checkpoint and --extra-steps (the checkpoint-load check).
void add_checkpoint_load_options(CLI::App& app, CheckpointLoadOptions& options);

// Which of the two training checks a run asks for.
enum class TrainingChecks { none, resume, checkpoint_load, both };

// The options of the training checks `which` names, checked before any check runs, so that a
// wrong command line never costs the checks already run: --gpus and --extra-steps at least 1,
// --data PREFIX with both files, --python and --resume-script files, --loss-pattern a pattern,
// --checkpoint DIR given and a folder.
// An input error (exit 2) naming the option: "--gpus: must be at least 1", "--data nowhere/x:
// nowhere/x.bin not found", "--check checkpoint-load needs --checkpoint DIR (a checkpoint written
// by the current environment)", "--checkpoint nowhere: no such folder".
Status check_training_options(const VerifyOptions& options, TrainingChecks which);

} // namespace envlock::verify
