#include "verify/resume/options.hpp"

#include "dataset/indexed_dataset.hpp"
#include "verify/resume/step_log.hpp"

#include <system_error>

namespace envlock::verify {

void add_resume_options(CLI::App& app, ResumeOptions& options) {
  const std::string group = "Resume check (--check resume)";
  app.add_option("--data", options.data,
                 "A Megatron indexed dataset PREFIX (PREFIX.bin/.idx) to train on (default: a "
                 "sample written to the work folder)")
      ->type_name("PREFIX")
      ->group(group);
  app.add_option("--gpus", options.gpus, "Train on N GPUs under torchrun with DDP (default: 1)")
      ->type_name("N")
      ->group(group);
  app.add_option("--train-cmd", options.train_cmd,
                 "Run this training command (through /bin/sh) instead of the bundled trainer; "
                 "{phase} {stop} {steps} {checkpoint_step} {ckpt} {data} are filled in")
      ->type_name("COMMAND")
      ->group(group);
  app.add_option("--loss-pattern", options.loss_pattern,
                 "A regular expression with {step}, {loss} and optionally {lr} reading "
                 "--train-cmd's log (default: Megatron-LM's iteration lines)")
      ->type_name("REGEX")
      ->group(group);
  app.add_option("--log-convention", options.log_convention,
                 "How --train-cmd's log reports losses: megatron (a process's second logged "
                 "iteration shows the mean of its first two) or plain (default: megatron with the "
                 "default --loss-pattern, plain with your own)")
      ->check(CLI::IsMember({"megatron", "plain"}))
      ->type_name("NAME")
      ->group(group);
  app.add_option("--resume-script", options.script,
                 "The trainer to run instead of envlock_resume.py found beside the executable")
      ->type_name("FILE")
      ->group(group);
  app.add_option("--python", options.python, "The Python to train with (default: the image's)")
      ->type_name("FILE")
      ->group(group);
  app.add_option("--work-dir", options.work_dir,
                 "Keep the logs, checkpoint and parameter dumps in DIR (default: a temporary "
                 "folder, removed)")
      ->type_name("DIR")
      ->group(group);
  app.add_option("--resume-args", options.model_args,
                 "Extra trainer arguments, e.g. \"--layers 8 --width 512 --batch 16\"")
      ->type_name("ARGS")
      ->group(group);
}

void add_checkpoint_load_options(CLI::App& app, CheckpointLoadOptions& options) {
  const std::string group = "Checkpoint load (--check checkpoint-load)";
  app.add_option("--checkpoint", options.checkpoint,
                 "A checkpoint folder written by the current environment, to load here and train "
                 "on (with --train-cmd: passed as {ckpt})")
      ->group(group);
  app.add_option("--extra-steps", options.extra_steps,
                 "Steps to train after loading the checkpoint (default: 5)")
      ->group(group);
}

Status check_training_options(const VerifyOptions& options, TrainingChecks which) {
  namespace fs = std::filesystem;
  if (which == TrainingChecks::none) {
    return {};
  }
  const ResumeOptions& resume = options.resume;
  if (resume.gpus < 1) {
    return input_error("--gpus: must be at least 1");
  }
  if (!resume.data.empty()) {
    for (const auto& file : {dataset::bin_path(resume.data), dataset::idx_path(resume.data)}) {
      std::error_code error;
      if (!fs::is_regular_file(file, error)) {
        return input_error("--data " + resume.data.string() + ": " + file.string() + " not found");
      }
    }
  }
  for (const auto& [option, path] :
       {std::pair{"--python", &resume.python}, std::pair{"--resume-script", &resume.script}}) {
    std::error_code error;
    if (!path->empty() && !fs::is_regular_file(*path, error)) {
      return input_error(std::string(option) + " " + path->string() + ": no such file");
    }
  }
  if (!resume.train_cmd.empty()) {
    ENVLOCK_TRY(parse_log_pattern(resume.loss_pattern.empty() ? k_megatron_loss_pattern
                                                              : resume.loss_pattern));
  }
  if (which == TrainingChecks::checkpoint_load || which == TrainingChecks::both) {
    const CheckpointLoadOptions& load = options.checkpoint_load;
    if (load.checkpoint.empty()) {
      return input_error("--check checkpoint-load needs --checkpoint DIR (a checkpoint written "
                         "by the current environment)");
    }
    if (load.extra_steps < 1) {
      return input_error("--extra-steps: must be at least 1");
    }
    std::error_code ec;
    if (!fs::is_directory(load.checkpoint, ec)) {
      return input_error("--checkpoint " + load.checkpoint.string() + ": no such folder");
    }
  }
  return {};
}

} // namespace envlock::verify
