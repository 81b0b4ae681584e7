#include "verify/resume/checkpoint_load.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"
#include "verify/probes/python_env.hpp"
#include "verify/resume/checkpoint_files.hpp"
#include "verify/resume/resume_check.hpp"
#include "verify/resume/runs.hpp"
#include "verify/resume/script.hpp"
#include "verify/resume/step_log.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_files_id = "checkpoint.files";
constexpr const char* k_files_title = "Checkpoint files";
constexpr const char* k_load_id = "checkpoint.load";
constexpr const char* k_load_title = "Checkpoint loaded and trained on";

// What another trainer's checkpoint folder looks like, for the reason when rank0.pt is missing.
std::string foreign_kind(const fs::path& dir, const CheckpointFiles& files) {
  if (util::path_exists(dir / "latest_checkpointed_iteration.txt")) {
    return "a Megatron-LM checkpoint (latest_checkpointed_iteration.txt)";
  }
  for (const auto& file : files.files) {
    if (file.path.ends_with(".distcp") || file.path.ends_with("/.metadata") ||
        file.path == ".metadata") {
      return "a torch.distributed.checkpoint folder (" + file.path + ")";
    }
    if (file.path.ends_with(".safetensors")) {
      return "a safetensors checkpoint (" + file.path + ")";
    }
  }
  return "";
}

CheckResult files_result(const fs::path& dir, const CheckpointFiles& files, int ranks,
                         bool bundled) {
  std::string expected = "a non-empty folder";
  if (bundled) {
    expected = ranks == 1 ? "rank0.pt" : "rank0.pt .. rank" + std::to_string(ranks - 1) + ".pt";
    expected += ", complete torch.save archives";
  }
  const std::string found = std::to_string(files.files.size()) +
                            (files.files.size() == 1 ? " file, " : " files, ") +
                            std::to_string(files.bytes) + " bytes, sha256 " + files.sha256;
  std::string reason;
  if (files.files.empty()) {
    reason = dir.string() + ": an empty folder: no checkpoint";
  }
  for (int rank = 0; bundled && reason.empty() && rank < ranks; ++rank) {
    const std::string name = "rank" + std::to_string(rank) + ".pt";
    if (!util::path_exists(dir / name)) {
      const std::string kind = foreign_kind(dir, files);
      reason = dir.string() + ": no " + name +
               (kind.empty() ? " (the bundled trainer writes rank<N>.pt)"
                             : ": " + kind + ", not the bundled trainer's") +
               "; load another trainer's checkpoint with --train-cmd";
      break;
    }
    reason = torch_save_problem(dir / name, (dir / name).string());
  }
  CheckResult result = reason.empty() ? passed(k_files_id, k_files_title, expected, found)
                                      : failed(k_files_id, k_files_title, expected, found, reason);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& file : files.files) {
    list.push_back({{"path", file.path}, {"sha256", file.sha256}, {"size", file.size}});
  }
  result.details = {{"sha256", files.sha256}, {"bytes", files.bytes}, {"files", list}};
  return result;
}

// The trainer's Python and the versions the verifier finds in its environment.
nlohmann::json trainer_versions(const RunContext& context, const fs::path& python) {
  const PythonEnvironment& env = context.python();
  const auto installed = scan_distributions(context, env);
  nlohmann::json out = {{"python", python.string()}, {"python_version", env.version}};
  for (const char* name : {"torch", "numpy"}) {
    const auto it = installed.find(name);
    out[name] = it == installed.end() ? nlohmann::json() : nlohmann::json(it->second.version);
  }
  return out;
}

std::string loss_text(double value) {
  char text[32];
  (void)std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

// checkpoint.load from a finished run and the steps it recorded.
CheckResult load_result(const TimedRun& run, const Result<RunLog>& log, int extra_steps,
                        const std::string& what) {
  const std::string expected =
      "loads, then " + std::to_string(extra_steps) + " steps with finite losses";
  CheckResult result = failed(k_load_id, k_load_title, expected, "", "");
  result.seconds = run.seconds;
  result.figures.push_back({"load_and_train_s", run.seconds, "s"});
  if (run.process.exit_code != 0) {
    result.reason = what + " exited with status " + std::to_string(run.process.exit_code) + ": " +
                    last_line(run.process);
    return result;
  }
  if (!log) {
    result.reason = log.error().message;
    return result;
  }
  if (log->steps.empty()) {
    result.reason = what + " recorded no training step";
    return result;
  }
  nlohmann::json losses = nlohmann::json::array();
  std::optional<std::string> bad;
  for (const auto& [step, record] : log->steps) {
    losses.push_back({{"step", step}, {"loss", loss_text(record.loss)}});
    if (!bad && !std::isfinite(record.loss)) {
      bad = "loss not finite at step " + std::to_string(step) + ": " + loss_text(record.loss);
    }
  }
  const std::int64_t first = log->steps.begin()->first;
  const std::int64_t last = log->steps.rbegin()->first;
  result.found = "loaded step " + std::to_string(first - 1) + ", trained steps " +
                 std::to_string(first) + "-" + std::to_string(last) + ", losses " +
                 loss_text(log->steps.begin()->second.loss) + " .. " +
                 loss_text(log->steps.rbegin()->second.loss);
  result.details["loaded_step"] = first - 1;
  result.details["losses"] = std::move(losses);
  if (bad) {
    result.reason = *bad;
  } else {
    result.outcome = Outcome::pass;
  }
  return result;
}

std::string upper_case(std::string text) {
  for (char& c : text) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return text;
}

// Loads the checkpoint and trains on: checkpoint.load, or an error when the trainer cannot run.
Result<CheckResult> load_checkpoint(const RunContext& context, bool bundled) {
  const CheckpointLoadOptions& options = context.options().checkpoint_load;
  const ResumeOptions& resume = context.options().resume;
  const fs::path& dir = options.checkpoint;
  std::error_code ec;
  std::optional<util::TempDir> temp;
  fs::path work = resume.work_dir;
  if (work.empty()) {
    ENVLOCK_TRY_ASSIGN(temp, util::TempDir::create("envlock-checkpoint-load"));
    work = temp->path();
  } else if (fs::create_directories(work, ec); ec) {
    return env_error("--work-dir " + work.string() + ": " + ec.message());
  }
  ENVLOCK_TRY_ASSIGN(const fs::path data, prepare_resume_data(resume, work));
  const std::string steps = std::to_string(resume_tolerance(context.lock().expect.resume).steps);
  const std::string extra = std::to_string(options.extra_steps);

  if (!bundled) {
    const std::map<std::string, std::string> values = {
        {"ckpt", dir.string()}, {"extra_steps", extra}, {"steps", steps}, {"data", data.string()}};
    std::string command = resume.train_cmd;
    std::map<std::string, std::string> env;
    for (const auto& [key, value] : values) {
      command = util::replace_all(command, "{" + key + "}", value);
      env["ENVLOCK_CHECKPOINT_" + upper_case(key)] = value;
    }
    ENVLOCK_TRY_ASSIGN(const LogPattern pattern,
                       parse_log_pattern(resume.loss_pattern.empty() ? k_megatron_loss_pattern
                                                                     : resume.loss_pattern));
    ENVLOCK_TRY_ASSIGN(const TimedRun run,
                       run_timed("checkpoint-load", {"/bin/sh", "-c", command}, env));
    const std::string output = run.process.out + "\n" + run.process.err;
    ENVLOCK_TRY(util::write_file_atomic(work / "checkpoint-load.log", output));
    CheckResult result = load_result(run, parse_text_log(output, pattern), options.extra_steps,
                                     "the --train-cmd command");
    result.details["trainer"] = trainer_versions(context, context.python().python);
    result.details["trainer"]["command"] = command;
    return result;
  }

  ENVLOCK_TRY_ASSIGN(const fs::path python, find_resume_python(resume, context.python().python));
  ENVLOCK_TRY_ASSIGN(const fs::path script, find_resume_script(resume, work));
  const fs::path records = work / "checkpoint-load.jsonl";
  fs::remove(records, ec);
  std::vector<std::string> argv = {python.string()};
  if (resume.gpus > 1) {
    argv.insert(argv.end(), {"-m", "torch.distributed.run", "--standalone", "--nproc-per-node",
                             std::to_string(resume.gpus)});
  }
  argv.insert(argv.end(),
              {script.string(), "train", "--data", data.string(), "--steps", steps, "--load",
               dir.string(), "--extra-steps", extra, "--records", records.string()});
  for (const auto& arg : util::split(resume.model_args, ' ')) {
    if (!util::trim(arg).empty()) {
      argv.emplace_back(util::trim(arg));
    }
  }
  ENVLOCK_TRY_ASSIGN(const TimedRun run, run_timed("checkpoint-load", argv));
  if (auto error = trainer_error(run.process, "checkpoint-load check")) {
    return *error;
  }
  const bool ran = run.process.exit_code == 0;
  CheckResult result = load_result(run, ran ? read_run_log(records) : Result<RunLog>(RunLog{}),
                                   options.extra_steps, "the trainer");
  result.details["trainer"] = trainer_versions(context, python);
  result.details["trainer"]["script"] = script.string();
  return result;
}

} // namespace

std::vector<CheckResult> run_checkpoint_load_check(const RunContext& context) {
  const CheckpointLoadOptions& options = context.options().checkpoint_load;
  const ResumeOptions& resume = context.options().resume;
  const fs::path& dir = options.checkpoint;
  if (context.mode() == Mode::offline) {
    return std::vector<CheckResult>{
        skipped(k_load_id, k_load_title, "", "offline mode (--root): the check trains")};
  }
  const bool bundled = resume.train_cmd.empty();
  auto files = hash_checkpoint(dir);
  if (!files) {
    return {failed(k_files_id, k_files_title, "", "", files.error().message),
            skipped(k_load_id, k_load_title, "", "the checkpoint's files could not be read")};
  }
  std::vector<CheckResult> out = {files_result(dir, *files, resume.gpus, bundled)};
  if (out[0].outcome == Outcome::fail) {
    out.push_back(
        skipped(k_load_id, k_load_title, "", "the checkpoint's files failed their check"));
    return out;
  }
  // What keeps the load from running (no Python, no PyTorch, no GPU, a work folder that cannot
  // be made) fails checkpoint.load with that reason; the files' result stays.
  auto loaded = load_checkpoint(context, bundled);
  out.push_back(loaded ? std::move(*loaded)
                       : failed(k_load_id, k_load_title, "", "", loaded.error().message));
  return out;
}

} // namespace envlock::verify
