// --train-cmd: the resume check around a user's training command (docs/manual/resume.md).
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "verify/resume/resume_check.hpp"
#include "verify/resume/runs.hpp"

#include <array>
#include <cctype>
#include <map>

namespace envlock::verify {

namespace {

std::string upper(std::string text) {
  for (char& c : text) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return text;
}

} // namespace

std::vector<CheckResult> run_train_cmd_check(const ResumeOptions& options, const ResumeWork& work) {
  const auto pattern = parse_log_pattern(options.loss_pattern.empty() ? k_megatron_loss_pattern
                                                                      : options.loss_pattern);
  if (!pattern) {
    return resume_not_run(options, pattern.error().message);
  }
  const bool megatron = options.log_convention.empty() ? options.loss_pattern.empty()
                                                       : options.log_convention == "megatron";
  const LogConvention convention = megatron ? LogConvention::megatron : LogConvention::plain;
  const std::string steps = std::to_string(work.tolerance.steps);
  const std::string half = std::to_string(work.tolerance.checkpoint_step);
  const std::string checkpoint = (work.dir / "checkpoint").string();
  const std::vector<std::array<std::string, 3>> phases = {
      {"continuous", steps, (work.dir / "continuous-checkpoint").string()},
      {"first", half, checkpoint},
      {"resumed", steps, checkpoint}};
  std::vector<TimedRun> runs;
  std::vector<Result<RunLog>> logs;
  for (const auto& [phase, stop, ckpt] : phases) {
    const std::map<std::string, std::string> values = {
        {"phase", phase},          {"stop", stop}, {"steps", steps},
        {"checkpoint_step", half}, {"ckpt", ckpt}, {"data", work.data.string()}};
    std::string command = options.train_cmd;
    std::map<std::string, std::string> env;
    for (const auto& [key, value] : values) {
      command = util::replace_all(command, "{" + key + "}", value);
      env["ENVLOCK_RESUME_" + upper(key)] = value;
    }
    auto started = run_timed(phase, {"/bin/sh", "-c", command}, env);
    if (!started) {
      return resume_not_run(options, started.error().message);
    }
    TimedRun run = std::move(*started);
    const std::string output = run.process.out + "\n" + run.process.err;
    if (auto written = util::write_file_atomic(work.dir / (phase + ".log"), output); !written) {
      return resume_not_run(options, written.error().message);
    }
    const bool ok = run.process.exit_code == 0;
    runs.push_back(std::move(run));
    if (!ok) {
      break;
    }
    auto log = parse_text_log(output, *pattern);
    if (log) {
      log->convention = convention;
    }
    logs.push_back(std::move(log));
  }
  std::vector<CheckResult> out = {runs_result(runs, options.gpus)};
  for (auto& result : compare_runs(runs, logs, work.tolerance, {}, {})) {
    out.push_back(std::move(result));
  }
  return out;
}

} // namespace envlock::verify
