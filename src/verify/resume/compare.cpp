#include "verify/resume/compare.hpp"

#include "util/fs.hpp"
#include "verify/run_context.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>

namespace envlock::verify {

namespace {

using Pick = std::function<std::optional<double>(const StepRecord&)>;

struct SeriesDiff {
  double max_abs = 0;
  double max_rel = 0;
  bool bit_identical = true;
  std::int64_t compared = 0;
  std::string failure;           // the first step outside the tolerance, in words
  std::int64_t failing_step = 0; // that step; 0 when none
};

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

std::string show_number(double value) {
  char text[32];
  return std::snprintf(text, sizeof text, "%.6g", value) < 0 ? std::string() : std::string(text);
}

// Where the stitched run's step `step` comes from.
const RunLog& source(const ResumeRuns& runs, std::int64_t step, const ResumeTolerance& tolerance) {
  return step <= tolerance.checkpoint_step ? runs.first : runs.resumed;
}

const char* source_name(std::int64_t step, const ResumeTolerance& tolerance) {
  return step <= tolerance.checkpoint_step ? "first" : "resumed";
}

// The value the stitched run should show at `step` for `pick`, when the continuous run's is
// `continuous`: the same, except the resumed process's second step under Megatron-LM's log
// convention, which shows the mean of its first two steps.
std::optional<double> expected_at(const ResumeRuns& runs, const ResumeTolerance& tolerance,
                                  const Pick& pick, std::int64_t step, bool averaged,
                                  std::optional<double> continuous) {
  if (!averaged || step != tolerance.checkpoint_step + 2 || !continuous) {
    return continuous;
  }
  const auto previous = runs.continuous.steps.find(step - 1);
  const auto before =
      previous == runs.continuous.steps.end() ? std::nullopt : pick(previous->second);
  if (!before) {
    return continuous;
  }
  return (*before + *continuous) / 2;
}

SeriesDiff compare_series(const ResumeRuns& runs, const ResumeTolerance& tolerance,
                          const Pick& pick, double abs_tolerance, double rel_tolerance,
                          std::string_view what, bool averaged) {
  SeriesDiff diff;
  for (std::int64_t step = 1; step <= tolerance.steps; ++step) {
    const RunLog& log = source(runs, step, tolerance);
    const auto expected_it = runs.continuous.steps.find(step);
    const auto found_it = log.steps.find(step);
    if (expected_it == runs.continuous.steps.end() || found_it == log.steps.end()) {
      diff.failure = "step " + std::to_string(step) + " is missing from the " +
                     (expected_it == runs.continuous.steps.end() ? "continuous"
                                                                 : source_name(step, tolerance)) +
                     " run";
      diff.bit_identical = false;
      diff.failing_step = step;
      return diff;
    }
    const bool mean_step = averaged && step == tolerance.checkpoint_step + 2;
    const auto expected =
        expected_at(runs, tolerance, pick, step, averaged, pick(expected_it->second));
    const auto found = pick(found_it->second);
    if (!expected || !found) {
      continue;
    }
    ++diff.compared;
    const double delta = std::fabs(*found - *expected);
    const double rel = *expected != 0 ? delta / std::fabs(*expected) : (delta == 0 ? 0 : delta);
    const bool identical = same_bits(*found, *expected);
    diff.bit_identical = diff.bit_identical && identical;
    if (!identical) {
      diff.max_abs = std::max(diff.max_abs, std::isnan(delta) ? INFINITY : delta);
      diff.max_rel = std::max(diff.max_rel, std::isnan(rel) ? INFINITY : rel);
    }
    // A mean of printed values differs from the printed mean by up to one unit of the last
    // printed digit.
    const double allowed = abs_tolerance + rel_tolerance * std::fabs(*expected) +
                           (mean_step ? found_it->second.loss_resolution : 0);
    const bool within = delta <= allowed;
    if (!identical && !within && diff.failure.empty()) {
      diff.failure =
          std::string(what) + " diverges at step " + std::to_string(step) + ": " +
          source_name(step, tolerance) + " run " + show_float(*found) + ", continuous run " +
          (mean_step
               ? "mean of steps " + std::to_string(step - 1) + " and " + std::to_string(step) + " "
               : std::string()) +
          show_float(*expected) + " (|diff| " + show_number(delta) + ", allowed " +
          show_number(allowed) + ")";
      diff.failing_step = step;
    }
  }
  return diff;
}

CheckResult series_result(std::string id, std::string title, const SeriesDiff& diff,
                          const std::string& expected, const ResumeTolerance& tolerance) {
  const std::string range = "steps 1-" + std::to_string(tolerance.steps) + ", resumed at " +
                            std::to_string(tolerance.checkpoint_step);
  const std::string found = diff.bit_identical
                                ? "bit-identical (" + range + ")"
                                : "max |diff| " + show_number(diff.max_abs) + ", max rel " +
                                      show_number(diff.max_rel) + " (" + range + ")";
  CheckResult result = diff.failure.empty()
                           ? passed(std::move(id), std::move(title), expected, found)
                           : failed(std::move(id), std::move(title), expected, found, diff.failure);
  result.figures = {{"max_abs_diff", diff.max_abs, ""}, {"max_rel_diff", diff.max_rel, ""}};
  result.details["bit_identical"] = diff.bit_identical;
  result.details["steps_compared"] = diff.compared;
  if (diff.failing_step != 0) {
    result.details["first_diverging_step"] = diff.failing_step;
  }
  return result;
}

} // namespace

std::string show_float(double value) {
  char text[64];
  return std::snprintf(text, sizeof text, "%.9g (%a)", value, value) < 0 ? std::string()
                                                                         : std::string(text);
}

CheckResult compare_losses(const ResumeRuns& runs, const ResumeTolerance& tolerance) {
  const bool averaged = runs.resumed.convention == LogConvention::megatron;
  const SeriesDiff diff = compare_series(
      runs, tolerance, [](const StepRecord& r) -> std::optional<double> { return r.loss; },
      tolerance.loss_abs, tolerance.loss_rel, "loss", averaged);
  return series_result("resume.loss", "Loss after resuming", diff,
                       "within " + show_number(tolerance.loss_abs) + " + " +
                           show_number(tolerance.loss_rel) + " x |loss|",
                       tolerance);
}

CheckResult compare_learning_rates(const ResumeRuns& runs, const ResumeTolerance& tolerance) {
  const SeriesDiff diff = compare_series(
      runs, tolerance, [](const StepRecord& r) { return r.lr; }, tolerance.lr_abs, 0,
      "learning rate", false);
  const std::string expected = "within " + show_number(tolerance.lr_abs);
  if (diff.compared == 0 && diff.failure.empty()) {
    return skipped("resume.lr", "Learning rate schedule", expected,
                   "the training log carries no learning rate");
  }
  return series_result("resume.lr", "Learning rate schedule", diff, expected, tolerance);
}

void diagnose(const ResumeTolerance& tolerance, CheckResult& loss, CheckResult& lr) {
  const auto first = [](const CheckResult& check) -> std::int64_t {
    return check.outcome == Outcome::fail && check.details.contains("first_diverging_step")
               ? check.details["first_diverging_step"].get<std::int64_t>()
               : 0;
  };
  const std::int64_t resumed = tolerance.checkpoint_step + 1;
  const std::int64_t loss_step = first(loss);
  const std::int64_t lr_step = first(lr);
  const char* k_hint = "; likely cause (a hint, not a verdict): ";
  std::string scheduler;
  if (lr_step >= resumed) {
    scheduler = "the learning-rate scheduler was not restored (the learning rate differs from "
                "step " +
                std::to_string(lr_step) + " on)";
    lr.details["diagnosis"] = scheduler;
    lr.reason += k_hint + scheduler;
  }
  if (loss_step < resumed) {
    return;
  }
  std::string cause;
  if (loss_step == resumed) {
    cause = "the model weights, the data position or the random state were not restored (the "
            "first resumed step, " +
            std::to_string(resumed) + ", already differs)";
  } else {
    cause = "the optimizer state (moments, step count) was not restored exactly (the first "
            "resumed step, " +
            std::to_string(resumed) + ", matches; step " + std::to_string(loss_step) + " differs)";
  }
  if (!scheduler.empty()) {
    cause += "; and " + scheduler;
  }
  loss.details["diagnosis"] = cause;
  loss.reason += k_hint + cause;
}

CheckResult compare_params(const std::filesystem::path& continuous,
                           const std::filesystem::path& resumed, const ResumeTolerance& tolerance) {
  const std::string id = "resume.params";
  const std::string title = "Final parameters";
  const std::string expected = "within " + show_number(tolerance.param_abs) + " + " +
                               show_number(tolerance.param_rel) + " x |param|";
  const auto a = util::read_file(continuous);
  const auto b = util::read_file(resumed);
  if (!a || !b) {
    return failed(id, title, expected, "", (!a ? a.error() : b.error()).message);
  }
  if (a->size() != b->size() || a->size() % 4 != 0) {
    return failed(id, title, expected, "",
                  "the parameter dumps differ in size: " + std::to_string(a->size()) + " and " +
                      std::to_string(b->size()) + " bytes");
  }
  double max_abs = 0;
  double max_rel = 0;
  std::size_t outside = 0;
  std::size_t first_outside = 0;
  for (std::size_t i = 0; i < a->size(); i += 4) {
    float x = 0;
    float y = 0;
    std::memcpy(&x, a->data() + i, 4);
    std::memcpy(&y, b->data() + i, 4);
    const double delta = std::fabs(static_cast<double>(y) - x);
    max_abs = std::max(max_abs, std::isnan(delta) ? INFINITY : delta);
    if (x != 0) {
      max_rel = std::max(max_rel, delta / std::fabs(static_cast<double>(x)));
    }
    if (!(delta <= tolerance.param_abs + tolerance.param_rel * std::fabs(x)) &&
        std::memcmp(a->data() + i, b->data() + i, 4) != 0 && outside++ == 0) {
      first_outside = i / 4;
    }
  }
  const bool identical = *a == *b;
  const std::string count = std::to_string(a->size() / 4) + " parameters";
  const std::string found = identical ? "bit-identical (" + count + ")"
                                      : "max |diff| " + show_number(max_abs) + ", max rel " +
                                            show_number(max_rel) + " (" + count + ")";
  CheckResult result = outside == 0 ? passed(id, title, expected, found)
                                    : failed(id, title, expected, found,
                                             std::to_string(outside) + " of " + count +
                                                 " outside the tolerance, the first at index " +
                                                 std::to_string(first_outside));
  result.figures = {{"max_abs_diff", max_abs, ""}, {"max_rel_diff", max_rel, ""}};
  result.details["bit_identical"] = identical;
  return result;
}

} // namespace envlock::verify
