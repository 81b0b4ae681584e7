// The resume check's plan and tolerances: the lock's `expect.resume` (docs/manual/resume.md),
// declared in the manifest before the run.
#pragma once

#include "lock/lock.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>

namespace envlock::verify {

struct ResumeTolerance {
  std::int64_t steps = 100;          // the planned run
  std::int64_t checkpoint_step = 50; // where the first half stops and saves
  double loss_abs = 0;               // |resumed - continuous| <= loss_abs + loss_rel * |continuous|
  double loss_rel = 0;
  double lr_abs = 0;    // |resumed - continuous| learning rate
  double param_abs = 0; // per final parameter, like the loss
  double param_rel = 0;
};

// The plan and tolerances of `expect` (absent keys: the defaults, which demand bit-identical
// runs of 100 steps resumed at 50).
ResumeTolerance resume_tolerance(const lock::ResumeExpect& expect);

// Reads an expect.resume object (lock::read_resume_expect) into its plan and tolerances; an input
// error names the key as read_resume_expect does.
Result<ResumeTolerance> read_resume_tolerance(const nlohmann::json& resume);

} // namespace envlock::verify
