// The options `fleet verify` and `fleet rollout` share (lock, image, nodes, Slurm pass-through,
// verifier), and turning them into a fleet::VerifyRun.
#pragma once

#include "cli/command.hpp"
#include "fleet/verify_run.hpp"

#include <string>
#include <vector>

namespace envlock::cli {

struct FleetVerifyOptions {
  std::string lock_path;
  std::string image;
  std::string nodes; // a Slurm host list
  std::string results = "fleet-results";
  std::string reference;
  double tolerance_percent = 10;
  std::string verifier;
  std::vector<std::string> verifier_args;
  bool no_container = false;
  bool no_host_checks = false;
  int wait_timeout_seconds = 600; // a job pending longer is cancelled
  fleet::StepOptions steps{64, 900};
  int deadline_seconds = 0; // the whole wait; 0: fleet::default_deadline
  int gpus_per_node = -1;   // -1: the lock's expect.gpus.count
  std::string gres;         // --gres SPEC instead of --gpus-per-node
  bool no_exclusive = false;
  fleet::SlurmOptions slurm;
};

// Adds --account, --qos, --time and --reservation (passed to #SBATCH) to a subcommand.
void add_sbatch_options(CLI::App& app, fleet::SlurmOptions& slurm);

// Adds --wait-timeout, --deadline, --step-timeout and --parallel-steps: the limits of a fleet
// job and of envlock's wait for it.
void add_wait_options(CLI::App& app, int& wait_timeout_seconds, int& deadline_seconds,
                      fleet::StepOptions& steps);

// Adds the shared options to a subcommand.
void add_fleet_verify_options(CLI::App& app, FleetVerifyOptions& options);

// The run the options describe, for `nodes` (already chosen; empty for a script that finds the
// partition's nodes when it is submitted) and this results folder. Fails with
// an input error for an unreadable lock or a bad image, an environment error when the verifier
// cannot be found.
Result<fleet::VerifyRun> make_verify_run(const FleetVerifyOptions& options,
                                         const std::vector<std::string>& nodes,
                                         const std::string& results);

// An input error unless --image is given (only --report-only may leave it out).
Status require_image(const FleetVerifyOptions& options);

// The nodes named by --nodes, else the nodes of --partition; an input error when neither is set.
Result<std::vector<std::string>> chosen_nodes(const FleetVerifyOptions& options);

// Prints "nodes done N/M" lines on standard error.
void print_progress(std::size_t done, std::size_t total);

} // namespace envlock::cli
