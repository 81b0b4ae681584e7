// The resume check's plan and tolerances: the lock's `expect.resume` (docs/manual/resume.md),
// declared in the manifest before the run.
#pragma once

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

// The keys `expect.resume` accepts, in documentation order.
const std::vector<std::string>& resume_tolerance_keys();

// Reads `expect.resume` (an object; empty: the defaults, which demand bit-identical runs of 100
// steps resumed at 50). An input error names the key: "expect.resume.loss_abs: expected a number
// >= 0", "expect.resume.checkpoint_step: must be between 1 and steps - 1 (99)", "expect.resume:
// unknown key 'los_abs'; did you mean 'loss_abs'?".
Result<ResumeTolerance> read_resume_tolerance(const nlohmann::json& resume);

} // namespace envlock::verify
