// The resume check's comparisons: the stitched run (first half, then the resumed process) against
// the continuous run, step by step, and the final parameters element by element.
#pragma once

#include "util/result.hpp"
#include "verify/check.hpp"
#include "verify/resume/step_log.hpp"
#include "verify/resume/tolerance.hpp"

#include <filesystem>
#include <string_view>

namespace envlock::verify {

// The three runs' records.
struct ResumeRuns {
  RunLog continuous; // steps 1..steps
  RunLog first;      // steps 1..checkpoint_step
  RunLog resumed;    // steps checkpoint_step+1..steps, in a new process
};

// "resume.loss": the loss at every step, the resumed process's steps against the continuous
// run's (and the first half's too); fails naming the first step outside the tolerance or missing.
// The details say whether the resumed steps were bit-identical.
CheckResult compare_losses(const ResumeRuns& runs, const ResumeTolerance& tolerance);

// "resume.lr": the learning rate at every step; skipped when the logs carry none.
CheckResult compare_learning_rates(const ResumeRuns& runs, const ResumeTolerance& tolerance);

// Adds to failed loss and learning-rate checks the likely cause, as a hint (details.diagnosis and
// the reason): the first resumed step differs -> weights, data position or random state not
// restored; it matches but a later one differs -> the optimizer state; the learning rate differs
// -> the scheduler.
void diagnose(const ResumeTolerance& tolerance, CheckResult& loss, CheckResult& lr);

// "resume.params": the final parameters of the continuous and resumed runs, as float32 dumps
// (little-endian); max absolute and relative difference against param_abs + param_rel * |x|.
// Fails when a file is unreadable or the sizes differ.
CheckResult compare_params(const std::filesystem::path& continuous,
                           const std::filesystem::path& resumed, const ResumeTolerance& tolerance);

// A float as "7.123456 (0x1.c7e6p+2)": readable and exact.
std::string show_float(double value);

} // namespace envlock::verify
