// The resume check's comparisons on loss series recorded on an H200 (1 GPU: a passing resume;
// 2 GPUs with the data position not restored: a failing one), a planted divergence, missing
// steps, parameter dumps and the log pattern of --train-cmd.
#include "../testutil.hpp"
#include "util/fs.hpp"
#include "verify/resume/compare.hpp"

#include <cstring>
#include <doctest/doctest.h>

using namespace envlock;
using namespace envlock::verify;

TEST_SUITE_BEGIN("verify");

namespace {

RunLog recorded(const std::string& name) {
  auto log = read_run_log(test::data_path("verify/resume/" + name));
  REQUIRE_MESSAGE(log, log.error().message);
  return *log;
}

ResumeRuns recorded_runs(const std::string& dir, const std::string& resumed = "resumed.jsonl") {
  return {recorded(dir + "continuous.jsonl"), recorded(dir + "first.jsonl"),
          recorded(dir + resumed)};
}

std::string floats(const std::vector<float>& values) {
  std::string out(values.size() * 4, '\0');
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

} // namespace

TEST_CASE("the recorded H200 resume is bit-identical and passes with zero tolerance") {
  const ResumeRuns runs = recorded_runs("");
  CHECK(runs.continuous.steps.size() == 100);
  CHECK(runs.first.steps.size() == 50);
  CHECK(runs.resumed.steps.begin()->first == 51);
  CHECK(runs.continuous.params_count == 5322240);
  CHECK(runs.continuous.params_sha256 == runs.resumed.params_sha256);
  const ResumeTolerance exact;
  const CheckResult loss = compare_losses(runs, exact);
  CHECK(loss.outcome == Outcome::pass);
  CHECK(loss.found == "bit-identical (steps 1-100, resumed at 50)");
  CHECK(loss.details["bit_identical"] == true);
  CHECK(loss.details["steps_compared"] == 100);
  const CheckResult lr = compare_learning_rates(runs, exact);
  CHECK(lr.outcome == Outcome::pass);
  CHECK(lr.id == "resume.lr");
}

TEST_CASE("a planted divergence fails naming its step") {
  const ResumeRuns runs = recorded_runs("", "resumed_diverged.jsonl");
  ResumeTolerance tolerance;
  tolerance.loss_abs = 1e-6;
  const CheckResult loss = compare_losses(runs, tolerance);
  CHECK(loss.outcome == Outcome::fail);
  CHECK(loss.reason ==
        "loss diverges at step 63: resumed run 6.73656423 (0x1.af23de4dd2f1bp+2), continuous run "
        "6.73556423 (0x1.af137cp+2) (|diff| 0.001, allowed 1e-06)");
  CHECK(loss.details["bit_identical"] == false);
  // A tolerance wider than the planted difference passes, and says it was not bit-identical.
  tolerance.loss_abs = 0.01;
  const CheckResult loose = compare_losses(runs, tolerance);
  CHECK(loose.outcome == Outcome::pass);
  CHECK(loose.found.starts_with("max |diff| 0.001, max rel 0.000148"));
}

TEST_CASE("the recorded broken resume (data position not restored) fails at step 51") {
  const ResumeRuns runs = recorded_runs("broken/");
  ResumeTolerance tolerance;
  tolerance.loss_abs = 1e-6;
  tolerance.loss_rel = 1e-6;
  const CheckResult loss = compare_losses(runs, tolerance);
  CHECK(loss.outcome == Outcome::fail);
  CHECK(loss.reason.starts_with("loss diverges at step 51: resumed run "));
  // The schedule itself was restored.
  CHECK(compare_learning_rates(runs, tolerance).outcome == Outcome::pass);
}

TEST_CASE("a missing step fails naming the run") {
  ResumeRuns runs = recorded_runs("");
  runs.resumed.steps.erase(77);
  const CheckResult loss = compare_losses(runs, ResumeTolerance{});
  CHECK(loss.outcome == Outcome::fail);
  CHECK(loss.reason == "step 77 is missing from the resumed run");
  runs.continuous.steps.erase(3);
  CHECK(compare_losses(runs, ResumeTolerance{}).reason ==
        "step 3 is missing from the continuous run");
}

TEST_CASE("a learning rate off its schedule fails; no learning rate at all is skipped") {
  ResumeRuns runs = recorded_runs("");
  runs.resumed.steps[90].lr = *runs.resumed.steps[90].lr * 2;
  const CheckResult lr = compare_learning_rates(runs, ResumeTolerance{});
  CHECK(lr.outcome == Outcome::fail);
  CHECK(lr.reason.starts_with("learning rate diverges at step 90: resumed run "));
  for (RunLog* log : {&runs.continuous, &runs.first, &runs.resumed}) {
    for (auto& [step, record] : log->steps) {
      record.lr.reset();
    }
  }
  const CheckResult none = compare_learning_rates(runs, ResumeTolerance{});
  CHECK(none.outcome == Outcome::skip);
  CHECK(none.reason == "the training log carries no learning rate");
}

TEST_CASE("final parameters: bit-identical, within tolerance, outside it, different sizes") {
  const util::TempDir dir = test::temp_dir();
  const auto a = dir.path() / "a.params";
  const auto b = dir.path() / "b.params";
  REQUIRE(util::write_file_atomic(a, floats({1.0F, -2.0F, 0.0F, 4.0F})));
  REQUIRE(util::write_file_atomic(b, floats({1.0F, -2.0F, 0.0F, 4.0F})));
  ResumeTolerance tolerance;
  CheckResult same = compare_params(a, b, tolerance);
  CHECK(same.outcome == Outcome::pass);
  CHECK(same.found == "bit-identical (4 parameters)");

  REQUIRE(util::write_file_atomic(b, floats({1.0F, -2.0F, 0.0F, 4.5F})));
  CheckResult off = compare_params(a, b, tolerance);
  CHECK(off.outcome == Outcome::fail);
  CHECK(off.found == "max |diff| 0.5, max rel 0.125 (4 parameters)");
  CHECK(off.reason == "1 of 4 parameters outside the tolerance, the first at index 3");
  tolerance.param_rel = 0.2;
  CHECK(compare_params(a, b, tolerance).outcome == Outcome::pass);

  REQUIRE(util::write_file_atomic(b, floats({1.0F})));
  CHECK(compare_params(a, b, tolerance).reason ==
        "the parameter dumps differ in size: 16 and 4 bytes");
}

TEST_CASE("bad record lines are input errors naming the line") {
  CHECK(parse_run_log("{\"kind\": \"step\", \"step\": 1, \"loss\": \"0x1p+0\"}\nnot json\n",
                      "r.jsonl")
            .error()
            .message == "r.jsonl:2: not a JSON object");
  CHECK(parse_run_log("{\"kind\": \"step\", \"step\": 4}\n", "r.jsonl").error().message ==
        "r.jsonl:1: step record without a loss");
  const auto log = parse_run_log(
      "{\"kind\": \"step\", \"step\": 2, \"loss\": 1.5, \"lr\": \"1e-3\"}", "r.jsonl");
  REQUIRE(log);
  CHECK(log->steps.at(2).loss == 1.5);
  CHECK(*log->steps.at(2).lr == 1e-3);
}

TEST_CASE("the Megatron-LM log pattern reads steps, learning rates and losses") {
  const auto pattern = parse_log_pattern(k_megatron_loss_pattern);
  REQUIRE_MESSAGE(pattern, pattern.error().message);
  const auto text = util::read_file(test::data_path("verify/resume/megatron.log"));
  REQUIRE(text);
  const auto log = parse_text_log(*text, *pattern);
  REQUIRE(log);
  REQUIRE(log->steps.size() == 4);
  CHECK(log->steps.at(3).loss == 10.52277);
  CHECK(*log->steps.at(3).lr == 3e-5);

  const auto custom = parse_log_pattern(R"(step=(\d+)? {step} loss={loss})");
  REQUIRE(custom);
  CHECK(custom->step_group == 2);
  CHECK(custom->loss_group == 3);
  CHECK(custom->lr_group == 0);
  CHECK(parse_text_log("x step=1 7 loss=0x1.8p+1\n", *custom)->steps.at(7).loss == 3.0);

  CHECK(parse_log_pattern("loss {loss}").error().message ==
        "--loss-pattern: needs {step} and {loss}");
  CHECK(parse_log_pattern("({step} {loss}")
            .error()
            .message.starts_with("--loss-pattern: not a regular expression: "));
}

TEST_SUITE_END();

namespace {

// A real Megatron-LM run's iteration lines (core_v0.19.0, one H200; tests/data/verify/resume/
// megatron/), read with the default pattern and Megatron's log convention.
RunLog megatron_log(const std::string& name) {
  const auto text = util::read_file(test::data_path("verify/resume/megatron/" + name + ".log"));
  REQUIRE(text);
  const auto pattern = parse_log_pattern(k_megatron_loss_pattern);
  REQUIRE(pattern);
  auto log = parse_text_log(*text, *pattern);
  REQUIRE(log);
  log->convention = LogConvention::megatron;
  return *log;
}

ResumeTolerance megatron_plan() {
  ResumeTolerance plan;
  plan.steps = 20;
  plan.checkpoint_step = 10;
  return plan;
}

} // namespace

TEST_CASE("a printed number's resolution is one unit in its last digit") {
  CHECK(decimal_resolution("6.422944E+00") == doctest::Approx(1e-6));
  CHECK(decimal_resolution("6.422944E-02") == doctest::Approx(1e-8));
  CHECK(decimal_resolution("-7.25") == doctest::Approx(0.01));
  CHECK(decimal_resolution("12") == 1);
  CHECK(decimal_resolution("0x1.8p+3") == 0);
  CHECK(decimal_resolution("nan") == 0);
}

TEST_CASE("Megatron-LM: a full resume passes with zero tolerance in BF16 and FP32") {
  for (const std::string prefix : {"", "fp32-"}) {
    const ResumeRuns runs{megatron_log(prefix + "continuous"), megatron_log(prefix + "first"),
                          megatron_log(prefix + "resumed-full")};
    CHECK(runs.continuous.steps.size() == 20);
    // The resumed process prints at step 12 the mean of its steps 11 and 12.
    CHECK(runs.resumed.steps.at(12).loss != runs.continuous.steps.at(12).loss);
    const CheckResult loss = compare_losses(runs, megatron_plan());
    CHECK_MESSAGE(loss.outcome == Outcome::pass, loss.reason);
    CHECK(compare_learning_rates(runs, megatron_plan()).outcome == Outcome::pass);
    // Read as plain lines, the same logs fail at step 12: the convention matters.
    ResumeRuns plain = runs;
    plain.resumed.convention = LogConvention::plain;
    const std::string reason = compare_losses(plain, megatron_plan()).reason;
    CHECK_MESSAGE(reason.starts_with("loss diverges at step 12: resumed run 6.4"), reason);
  }
}

TEST_CASE("Megatron-LM: without optimizer state the diagnosis names it and the scheduler") {
  const ResumeRuns runs{megatron_log("continuous"), megatron_log("first"),
                        megatron_log("resumed-no-load-optim")};
  CheckResult loss = compare_losses(runs, megatron_plan());
  CheckResult lr = compare_learning_rates(runs, megatron_plan());
  diagnose(megatron_plan(), loss, lr);
  REQUIRE(loss.outcome == Outcome::fail);
  CHECK(loss.details["first_diverging_step"] == 12);
  CHECK(loss.reason ==
        "loss diverges at step 12: resumed run 6.441701 (0x1.9c44d44567126p+2), continuous run "
        "mean of steps 11 and 12 6.4229435 (0x1.9b11819d2391ep+2) (|diff| 0.0187575, allowed "
        "1e-06); likely cause (a hint, not a verdict): the optimizer state (moments, step count) "
        "was not restored exactly (the first resumed step, 11, matches; step 12 differs); and the "
        "learning-rate scheduler was not restored (the learning rate differs from step 11 on)");
  REQUIRE(lr.outcome == Outcome::fail);
  CHECK(lr.details["diagnosis"] ==
        "the learning-rate scheduler was not restored (the learning rate differs from step 11 on)");
}

TEST_CASE("Megatron-LM: without the random state the first resumed step already differs") {
  const ResumeRuns runs{megatron_log("continuous"), megatron_log("first"),
                        megatron_log("resumed-no-load-rng")};
  CheckResult loss = compare_losses(runs, megatron_plan());
  CheckResult lr = compare_learning_rates(runs, megatron_plan());
  diagnose(megatron_plan(), loss, lr);
  REQUIRE(loss.outcome == Outcome::fail);
  CHECK(loss.details["first_diverging_step"] == 11);
  CHECK(loss.details["diagnosis"] ==
        "the model weights, the data position or the random state were not restored (the first "
        "resumed step, 11, already differs)");
  CHECK(lr.outcome == Outcome::pass);
}
