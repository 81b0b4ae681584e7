#include "verify/resume/options.hpp"

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

} // namespace envlock::verify
