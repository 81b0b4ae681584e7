#include "verify/resume/resume_check.hpp"

#include "dataset/indexed_dataset.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"
#include "verify/probes/python_env.hpp"
#include "verify/resume/runs.hpp"
#include "verify/resume/script.hpp"

#include <optional>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

// How the trainer is started: python SCRIPT, or torchrun over N GPUs.
struct Trainer {
  fs::path python;
  fs::path script;
  int gpus = 1;
  std::vector<std::string> common; // --data, --steps, model arguments

  [[nodiscard]] std::vector<std::string> argv(const std::string& mode, int gpus_used,
                                              const std::vector<std::string>& extra) const {
    std::vector<std::string> out = {python.string()};
    if (gpus_used > 1) {
      out.insert(out.end(), {"-m", "torch.distributed.run", "--standalone", "--nproc-per-node",
                             std::to_string(gpus_used)});
    }
    out.push_back(script.string());
    out.push_back(mode);
    out.insert(out.end(), common.begin(), common.end());
    out.insert(out.end(), extra.begin(), extra.end());
    return out;
  }
};

std::string names(const nlohmann::json& list) {
  std::vector<std::string> out;
  for (const auto& name : list) {
    out.push_back(name.get<std::string>());
  }
  return util::join(out, ", ");
}

// "resume.compute" from the trainer's compute line.
Result<CheckResult> compute_result(const TimedRun& run) {
  const std::string id = "resume.compute";
  const std::string title = "One BF16 training step (SDPA, fused AdamW)";
  const std::string expected = "finite non-zero gradients, every parameter updated";
  if (auto error = trainer_error(run.process)) {
    return *error;
  }
  if (run.process.exit_code != 0) {
    return failed(id, title, expected, "",
                  "the step exited with status " + std::to_string(run.process.exit_code) + ": " +
                      last_line(run.process));
  }
  const auto lines = util::split(util::trim(run.process.out), '\n');
  const auto line = nlohmann::json::parse(lines.empty() ? "" : lines.back(), nullptr, false);
  if (line.is_discarded() || line.value("kind", "") != "compute") {
    return failed(id, title, expected, "", "the step printed no result line");
  }
  const std::string found = "SDPA backend " + line.value("sdpa_backend", "?") + ", " +
                            std::to_string(line.value("parameters", 0)) + " parameters in " +
                            std::to_string(line.value("tensors", 0)) + " tensors on " +
                            line.value("device", "?");
  std::vector<std::string> problems;
  for (const auto& [key, words] :
       {std::pair{"not_finite", "gradient not finite"}, std::pair{"zero_grad", "gradient all zero"},
        std::pair{"unchanged", "not updated"}}) {
    if (line.contains(key) && !line[key].empty()) {
      problems.push_back(std::string(words) + ": " + names(line[key]));
    }
  }
  CheckResult result = problems.empty()
                           ? passed(id, title, expected, found)
                           : failed(id, title, expected, found, util::join(problems, "; "));
  result.details = {{"sdpa_backend", line.value("sdpa_backend", "")},
                    {"torch", line.value("torch", "")},
                    {"cuda", line.value("cuda", "")}};
  result.seconds = run.seconds;
  return result;
}

// The compute step: the trainer found and started, its result line read. An error when the
// trainer cannot be found or started, or reports its own error (no PyTorch, no GPU).
Result<CheckResult> run_compute(const ResumeOptions& options, const ResumeWork& work,
                                Trainer& trainer) {
  ENVLOCK_TRY_ASSIGN(trainer.python, find_resume_python(options, work.environment_python));
  ENVLOCK_TRY_ASSIGN(trainer.script, find_resume_script(options, work.dir));
  ENVLOCK_TRY_ASSIGN(const TimedRun compute, run_timed("compute", trainer.argv("compute", 1, {})));
  return compute_result(compute);
}

std::vector<CheckResult> run_trainer(const ResumeOptions& options, const ResumeWork& work) {
  Trainer trainer{{},
                  {},
                  options.gpus,
                  {"--data", work.data.string(), "--steps", std::to_string(work.tolerance.steps)}};
  for (const auto& arg : util::split(options.model_args, ' ')) {
    if (!util::trim(arg).empty()) {
      trainer.common.emplace_back(util::trim(arg));
    }
  }
  auto computed = run_compute(options, work, trainer);
  if (!computed) {
    return resume_not_run(options, computed.error().message);
  }
  std::vector<CheckResult> out = {std::move(*computed)};

  const fs::path checkpoint = work.dir / "checkpoint";
  const auto path = [&](const std::string& name) { return (work.dir / name).string(); };
  const std::string steps = std::to_string(work.tolerance.steps);
  const std::string half = std::to_string(work.tolerance.checkpoint_step);
  const std::vector<std::pair<std::string, std::vector<std::string>>> plans = {
      {"continuous",
       {"--stop", steps, "--records", path("continuous.jsonl"), "--params",
        path("continuous.params")}},
      {"first", {"--stop", half, "--records", path("first.jsonl"), "--save", checkpoint.string()}},
      {"resumed",
       {"--stop", steps, "--records", path("resumed.jsonl"), "--load", checkpoint.string(),
        "--params", path("resumed.params")}}};
  std::vector<TimedRun> runs;
  std::vector<Result<RunLog>> logs;
  for (const auto& [name, extra] : plans) {
    std::error_code ignored;
    fs::remove(path(name + ".jsonl"), ignored);
    auto run = run_timed(name, trainer.argv("train", options.gpus, extra));
    if (!run) {
      auto rest = resume_not_run(options, run.error().message);
      out.insert(out.end(), rest.begin() + 1, rest.end());
      return out;
    }
    const bool ok = run->process.exit_code == 0;
    runs.push_back(std::move(*run));
    if (!ok) {
      break;
    }
    logs.push_back(read_run_log(path(name + ".jsonl")));
  }
  out.push_back(runs_result(runs, options.gpus));
  for (auto& result : compare_runs(runs, logs, work.tolerance, path("continuous.params"),
                                   path("resumed.params"))) {
    out.push_back(std::move(result));
  }
  return out;
}

} // namespace

Result<fs::path> prepare_resume_data(const ResumeOptions& options, const fs::path& work_dir) {
  if (!options.data.empty()) {
    return options.data;
  }
  ENVLOCK_TRY_ASSIGN(const dataset::IndexedDataset dataset,
                     dataset::sample_dataset(dataset::SampleSpec{}));
  const fs::path prefix = work_dir / "sample_text_document";
  ENVLOCK_TRY(dataset::write_dataset(prefix, dataset));
  return prefix;
}

std::vector<CheckResult> resume_not_run(const ResumeOptions& options, const std::string& reason) {
  const bool bundled = options.train_cmd.empty();
  std::vector<std::pair<const char*, const char*>> checks = {
      {"resume.runs", "Training runs"},
      {"resume.loss", "Loss after resuming"},
      {"resume.lr", "Learning rate schedule"}};
  if (bundled) {
    checks.insert(checks.begin(), {"resume.compute", "One BF16 training step (SDPA, fused AdamW)"});
    checks.emplace_back("resume.params", "Final parameters");
  }
  std::vector<CheckResult> out = {
      failed(checks.front().first, checks.front().second, "", "", reason)};
  for (std::size_t i = 1; i < checks.size(); ++i) {
    out.push_back(skipped(checks[i].first, checks[i].second, "",
                          std::string("not run: ") + checks.front().first + " failed"));
  }
  return out;
}

std::vector<CheckResult> run_resume_check(const RunContext& context) {
  const ResumeOptions& options = context.options().resume;
  const ResumeTolerance tolerance = resume_tolerance(context.lock().expect.resume);
  if (context.mode() == Mode::offline) {
    return std::vector<CheckResult>{skipped("resume.runs", "Training runs", "",
                                            "offline mode (--root): the resume check trains")};
  }
  std::optional<util::TempDir> temp;
  fs::path dir = options.work_dir;
  if (dir.empty()) {
    auto made = util::TempDir::create("envlock-resume");
    if (!made) {
      return resume_not_run(options, made.error().message);
    }
    temp.emplace(std::move(*made));
    dir = temp->path();
  } else {
    std::error_code error;
    fs::create_directories(dir, error);
    if (error) {
      return resume_not_run(options, "--work-dir " + dir.string() + ": " + error.message());
    }
  }
  auto data = prepare_resume_data(options, dir);
  if (!data) {
    return resume_not_run(options, data.error().message);
  }
  const ResumeWork work{dir, *data, tolerance, context.python().python};
  if (!options.train_cmd.empty()) {
    return run_train_cmd_check(options, work);
  }
  return run_trainer(options, work);
}

} // namespace envlock::verify
