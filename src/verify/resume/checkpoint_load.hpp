// The checkpoint-load check (`--check checkpoint-load`, docs/manual/verify.md): can this (older)
// environment read a checkpoint the current one wrote, so that training can go back to it? The
// image's own trainer (the bundled envlock_resume.py, or the user's --train-cmd with {ckpt})
// loads the checkpoint and trains a few steps; the check passes when loading succeeds and every
// loss is finite. The report names the checkpoint by the sha256 of its files and the trainer by
// the versions of its Python, PyTorch and NumPy.
#pragma once

#include "util/result.hpp"
#include "verify/check.hpp"
#include "verify/run_context.hpp"

#include <vector>

namespace envlock::verify {

// Results: "checkpoint.files" (the folder's files hashed; with the bundled trainer, each
// rank<N>.pt checked as a complete torch.save archive) and "checkpoint.load" (skipped when the
// files failed; failed with the reason when the trainer cannot run: no Python, PyTorch or GPU,
// "checkpoint-load check: ..."). Skipped in offline mode. Its options (--checkpoint, --extra-steps,
// --gpus) are checked before any check runs (check_training_options).
std::vector<CheckResult> run_checkpoint_load_check(const RunContext& context);

} // namespace envlock::verify
