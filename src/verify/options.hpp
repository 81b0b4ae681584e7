// What one verification run was asked to do: the parsed command line of `envlock-verify` and
// `envlock verify`.
#pragma once

#include "cmdline/colour.hpp"
#include "verify/gpu/sampler.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace envlock::verify {

inline constexpr const char* k_default_lock = "/etc/envlock/lock.json";

// The check groups --check accepts, in report order. "resume" and "checkpoint-load" train, so
// they run only when --check names them.
inline const std::vector<std::string>& check_groups() {
  static const std::vector<std::string> groups = {
      "gpu",   "cuda", "nccl",  "torch",     "packages", "megatron", "image",
      "smoke", "gemm", "links", "allreduce", "sdc",      "resume",   "checkpoint-load"};
  return groups;
}

// Opens the SDC check's GPU sampler (verify/gpu/sampler.hpp), or says why it cannot.
using OpenGpuSampler = std::function<Result<std::shared_ptr<GpuSampler>>()>;

// The options of the SDC check (docs/manual/verify.md, "The SDC check").
struct SdcCheckOptions {
  double seconds = 45;     // --sdc-seconds S: the chain's time budget per GPU
  std::uint64_t steps = 0; // --sdc-steps N: a fixed number of steps instead
  std::string shape;       // hidden --sdc-shape small: the stand-ins' shape
  std::string inject;      // hidden --inject-bitflip GPU:STEP (test runs only)
};

// The options of the checkpoint-load check (docs/manual/verify.md): a checkpoint written by
// another (newer) environment, loaded here and trained on. The trainer, Python, data, model
// arguments, --train-cmd and --work-dir are the resume check's.
struct CheckpointLoadOptions {
  std::filesystem::path checkpoint; // --checkpoint DIR
  int extra_steps = 5;              // --extra-steps N: steps trained after loading
};

// The options of the resume check (docs/manual/resume.md).
struct ResumeOptions {
  std::filesystem::path data;     // --data PREFIX; empty: a sample written to the work folder
  int gpus = 1;                   // --gpus N: N > 1 runs under torchrun with DDP
  std::string train_cmd;          // --train-cmd: a user's training command instead
  std::string loss_pattern;       // --loss-pattern for --train-cmd's log; empty: Megatron's
  std::string log_convention;     // --log-convention megatron|plain; empty: by the pattern
  std::filesystem::path script;   // --resume-script; empty: looked for, else the embedded one
  std::filesystem::path python;   // --python; empty: the environment's python3
  std::filesystem::path work_dir; // --work-dir (kept); empty: a temporary folder
  std::string model_args;         // --resume-args, appended to the trainer's arguments
};

struct VerifyOptions {
  std::filesystem::path lock_path;  // empty: k_default_lock (under --root when given)
  std::filesystem::path root;       // empty: check this running system; else offline mode
  std::string format;               // --format text|json|junit; empty: by -o's extension, else text
  std::string output;               // -o FILE; empty: standard output
  std::filesystem::path json_path;  // --json FILE (the old spelling of --format json -o FILE)
  std::filesystem::path junit_path; // --junit FILE: also the JUnit XML, for CI
  cmdline::ColourWhen colour = cmdline::ColourWhen::automatic; // --color, of the table
  std::filesystem::path host_facts; // --host-facts FILE (from `envlock node`)
  std::string image_digest;         // --image-digest sha256:… (the image the node runs)
  std::filesystem::path sqsh;       // --sqsh FILE (the .sqsh the image came from)
  std::vector<std::filesystem::path> site_packages; // overrides the search when not empty
  std::vector<std::string> checks;                  // groups to run; empty: all
  std::string devices;                              // "0,1"; empty: all visible GPUs
  bool no_gpu = false;                              // skip the GPU checks, with that reason
  bool deep = false;                                // also hash every file named in RECORD
  bool quick = false; // --quick: the checks that take time left out (docs/manual/verify.md)
  ResumeOptions resume;
  CheckpointLoadOptions checkpoint_load;
  SdcCheckOptions sdc;
  // Opens what reads the GPUs' temperatures and clocks during the SDC check: set by the
  // program's main (node's NVML sampler), never on the command line; empty: not sampled.
  OpenGpuSampler open_gpu_sampler;
};

} // namespace envlock::verify
