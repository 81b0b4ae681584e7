// The batch scripts envlock submits, rendered from templates/fleet-*.sbatch.mustache (a template
// file on disk wins over the built-in copy, as for the Dockerfile). Every value that reaches the
// shell is single-quoted; values that go into #SBATCH lines may not contain white space.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace envlock::fleet {

// Slurm options passed through to #SBATCH lines; empty ones are left out.
struct SlurmOptions {
  std::string partition;
  std::string account;
  std::string qos;
  std::string time;
  std::string reservation;
};

// How the job's steps are run: one step per node, at most `parallel` at a time, each with its
// own time limit.
struct StepOptions {
  int parallel = 64;    // concurrent steps (srun processes on the batch host)
  int step_seconds = 0; // each step's time limit (srun --time, whole minutes); 0: the job's
};

enum class RunMode { container, no_container };

struct VerifyScript {
  // The nodes to verify (natural order). Empty: every node of slurm.partition, which the script
  // asks sinfo for when it is run with bash, and submits itself with them.
  std::vector<std::string> nodes;
  SlurmOptions slurm;
  std::filesystem::path results;      // absolute, shared by all nodes
  std::filesystem::path script;       // where the script is written (for its comment)
  std::filesystem::path lock;         // absolute
  std::filesystem::path verifier;     // envlock-verify, absolute
  std::filesystem::path host_checker; // envlock for `node --check`; empty: no host checks
  std::string image;                  // .sqsh path or docker://REF@DIGEST
  RunMode mode = RunMode::container;
  std::vector<std::string> verifier_args; // extra arguments for envlock-verify
  // The GPUs each node's task needs, as an #SBATCH option ("--gpus-per-node=8", "--gres=gpu:8");
  // empty: none asked for. On a cluster with GRES and ConstrainDevices=yes a job that asks for
  // none sees no GPU.
  std::string gpu_request;
  bool exclusive = true; // #SBATCH --exclusive: nothing else runs on a node while it is checked
  StepOptions steps;
  std::string job_name = "envlock-fleet-verify";
};

struct DistributeScript {
  std::vector<std::string> nodes;
  SlurmOptions slurm;
  std::filesystem::path results;
  std::filesystem::path script;
  std::filesystem::path source; // the .sqsh, absolute
  std::filesystem::path dest;   // the path on each node, absolute
  bool copy = true;             // false: only hash the copies already there
  StepOptions steps;
  std::string job_name = "envlock-fleet-distribute";
};

// Where pyxis takes an image from: a .sqsh path as is; docker://REGISTRY/REPO@DIGEST as
// REGISTRY#REPO@DIGEST (enroot's form).
std::string pyxis_image(const std::string& image);

// The fleet-verify batch script. Fails with an input error naming the option whose value has
// white space, or an environment error when the template is missing or broken.
Result<std::string> render_verify_script(const VerifyScript& job);

// The fleet-distribute batch script; fails like render_verify_script.
Result<std::string> render_distribute_script(const DistributeScript& job);

} // namespace envlock::fleet
