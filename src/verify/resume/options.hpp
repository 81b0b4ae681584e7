// The command-line options of the resume and checkpoint-load checks, added to the verifier's.
#pragma once

#include "verify/options.hpp"

#include <CLI/CLI.hpp>

namespace envlock::verify {

// Adds --data, --gpus, --train-cmd, --loss-pattern, --resume-script, --python, --work-dir and
// --resume-args, storing them in `options` (which must outlive parsing).
void add_resume_options(CLI::App& app, ResumeOptions& options);

// Adds --checkpoint and --extra-steps (the checkpoint-load check).
void add_checkpoint_load_options(CLI::App& app, CheckpointLoadOptions& options);

} // namespace envlock::verify
