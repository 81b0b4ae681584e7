#include "cli/fleet/verify_options.hpp"

#include "fleet/hostlist.hpp"
#include "fleet/slurm.hpp"
#include "lock/lock.hpp"
#include "node/health/judge.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <system_error>

namespace envlock::cli {

namespace fs = std::filesystem;

namespace {

// envlock-verify beside this executable.
Result<fs::path> default_verifier() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path beside = exe.parent_path() / "envlock-verify";
  if (ec || !fs::is_regular_file(beside, ec)) {
    return env_error("envlock-verify not found beside envlock; give --verifier PATH");
  }
  return beside;
}

Result<fs::path> this_executable() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return env_error("/proc/self/exe: " + ec.message());
  }
  return exe;
}

// The #SBATCH GPU request: --gres, else --gpus-per-node, else the lock's GPU count. A lock that
// names no count, with neither option, asks for none, and says so: on a cluster with GRES the
// job would see no GPU.
Result<std::string> gpu_request(const FleetVerifyOptions& o, const lock::Lock& lock) {
  if (!o.gres.empty()) {
    if (o.gpus_per_node >= 0) {
      return input_error("--gres and --gpus-per-node both ask for GPUs; give one");
    }
    return "--gres=" + o.gres;
  }
  const std::int64_t count = o.gpus_per_node >= 0 ? o.gpus_per_node : lock.expect.gpus.count;
  if (count > 0) {
    return "--gpus-per-node=" + std::to_string(count);
  }
  if (o.gpus_per_node < 0) {
    std::cerr << "envlock: warning: the lock names no GPU count (expect.gpus.count is 0), so the "
                 "job asks Slurm for "
                 "no GPUs (on a cluster with GRES it sees none); give --gpus-per-node N or "
                 "--gres SPEC\n";
  }
  return std::string();
}

} // namespace

void add_fleet_verify_options(CLI::App& app, FleetVerifyOptions& o) {
  app.add_option("--lock", o.lock_path, "The lock to verify against")
      ->required()
      ->type_name("FILE");
  app.add_option("--image", o.image,
                 "IMAGE.sqsh or docker://REF@DIGEST (required, but with --report-only)")
      ->type_name("IMAGE");
  app.add_option("--nodes", o.nodes, "The nodes, as a Slurm host list (node[1-4])")
      ->type_name("HOSTLIST");
  app.add_option("--partition", o.slurm.partition, "The partition (all its nodes without --nodes)")
      ->type_name("NAME");
  app.add_option("--results", o.results, "The results folder, shared by all nodes")
      ->capture_default_str()
      ->type_name("DIR");
  app.add_option("--reference", o.reference, "The node figures are compared with (default: first)")
      ->type_name("NODE");
  app.add_option("--tolerance", o.tolerance_percent,
                 "Percent below the reference's figure that makes an outlier")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 100.0))
      ->type_name("PERCENT");
  app.add_option("--verifier", o.verifier, "envlock-verify on the nodes (default: beside envlock)")
      ->type_name("FILE");
  app.add_option("--verifier-arg", o.verifier_args,
                 "An extra argument for envlock-verify (repeatable), e.g. --verifier-arg=--no-gpu")
      ->type_name("ARG");
  app.add_flag("--no-container", o.no_container, "Run the verifier directly on the nodes");
  app.add_flag("--no-host-checks", o.no_host_checks,
               "Skip the host checks (the lock's expect.host and the node's health)");
  add_wait_options(app, o.wait_timeout_seconds, o.deadline_seconds, o.steps);
  app.add_option("--gpus-per-node", o.gpus_per_node,
                 "GPUs the job asks for on each node (default: the lock's expect.gpus.count; 0: "
                 "none)")
      ->check(CLI::Range(0, 1024))
      ->type_name("N");
  app.add_option("--gres", o.gres,
                 "Ask for these generic resources instead (#SBATCH --gres=SPEC, e.g. gpu:h200:8)")
      ->type_name("SPEC");
  app.add_flag("--no-exclusive", o.no_exclusive,
               "Share the nodes with other jobs (default: #SBATCH --exclusive)");
  add_sbatch_options(app, o.slurm);
}

void add_wait_options(CLI::App& app, int& wait_timeout_seconds, int& deadline_seconds,
                      fleet::StepOptions& steps) {
  app.add_option("--wait-timeout", wait_timeout_seconds,
                 "Cancel the job if it is still pending after this many seconds; its nodes are "
                 "reported as not verified, with their Slurm states")
      ->capture_default_str()
      ->check(CLI::Range(1, 7 * 24 * 3600))
      ->type_name("SECONDS");
  app.add_option("--deadline", deadline_seconds,
                 "Cancel the job if it is not over this many seconds after it was submitted; "
                 "nodes without a result are reported as not verified (default: the wait "
                 "timeout plus every wave of steps at its limit, plus 2 minutes)")
      ->check(CLI::Range(1, 7 * 24 * 3600))
      ->type_name("SECONDS");
  app.add_option("--step-timeout", steps.step_seconds,
                 "Each node's job step's own time limit (srun --time, rounded up to minutes; "
                 "0: the job's)")
      ->capture_default_str()
      ->check(CLI::Range(0, 7 * 24 * 3600))
      ->type_name("SECONDS");
  app.add_option("--parallel-steps", steps.parallel,
                 "Job steps (one per node) running at once; each is an srun on the batch host")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000))
      ->type_name("N");
}

void add_sbatch_options(CLI::App& app, fleet::SlurmOptions& slurm) {
  app.add_option("--account", slurm.account, "Slurm account (passed to #SBATCH)")
      ->type_name("NAME");
  app.add_option("--qos", slurm.qos, "Slurm QOS (passed to #SBATCH)")->type_name("NAME");
  app.add_option("--time", slurm.time, "Slurm time limit (passed to #SBATCH)")->type_name("LIMIT");
  app.add_option("--reservation", slurm.reservation, "Slurm reservation (passed to #SBATCH)")
      ->type_name("NAME");
}

Status require_image(const FleetVerifyOptions& o) {
  if (o.image.empty()) {
    return input_error("--image is required: IMAGE.sqsh or docker://REF@DIGEST");
  }
  return {};
}

Result<std::vector<std::string>> chosen_nodes(const FleetVerifyOptions& o) {
  if (!o.nodes.empty()) {
    return fleet::expand_hostlist(o.nodes);
  }
  if (!o.slurm.partition.empty()) {
    return fleet::partition_nodes(o.slurm.partition);
  }
  return input_error("give the nodes: --nodes LIST or --partition P");
}

Result<fleet::VerifyRun> make_verify_run(const FleetVerifyOptions& o,
                                         const std::vector<std::string>& nodes,
                                         const std::string& results) {
  ENVLOCK_TRY_ASSIGN(const lock::Lock lock, lock::read_lock(o.lock_path));
  if (!o.reference.empty() && !nodes.empty() &&
      std::find(nodes.begin(), nodes.end(), o.reference) == nodes.end()) {
    return input_error("--reference: '" + o.reference + "' is not one of the nodes");
  }
  fleet::VerifyRun run;
  auto& script = run.script;
  script.nodes = nodes;
  script.slurm = o.slurm;
  script.results = fs::absolute(results).lexically_normal();
  script.script = script.results / "fleet-verify.sbatch";
  script.lock = fs::absolute(o.lock_path).lexically_normal();
  if (o.verifier.empty()) {
    ENVLOCK_TRY_ASSIGN(script.verifier, default_verifier());
  } else {
    script.verifier = fs::absolute(o.verifier).lexically_normal();
  }
  // The host check judges the health of every GPU NVML sees, whatever the lock expects.
  if (!o.no_host_checks) {
    ENVLOCK_TRY_ASSIGN(script.host_checker, this_executable());
  }
  const bool sqsh = o.image.rfind("docker://", 0) != 0;
  script.image =
      sqsh && !o.image.empty() ? fs::absolute(o.image).lexically_normal().string() : o.image;
  script.mode = o.no_container ? fleet::RunMode::no_container : fleet::RunMode::container;
  script.verifier_args = o.verifier_args;
  ENVLOCK_TRY_ASSIGN(script.gpu_request, gpu_request(o, lock));
  script.exclusive = !o.no_exclusive;
  if (!o.image.empty()) {
    ENVLOCK_TRY_ASSIGN(run.aggregate.image_digest, fleet::image_digest(script.image));
  }
  run.aggregate.image = o.image;
  run.aggregate.lock_sha256 = lock::lock_sha256(lock);
  run.aggregate.reference = o.reference;
  run.aggregate.tolerance = o.tolerance_percent / 100.0;
  run.aggregate.busbw_thresholds = lock.expect.nccl_busbw_gbps;
  script.steps = o.steps;
  run.limits.pending_limit = std::chrono::seconds(o.wait_timeout_seconds);
  run.limits.deadline = std::chrono::seconds(o.deadline_seconds);
  run.on_progress = print_progress;
  return run;
}

void print_progress(std::size_t done, std::size_t total) {
  std::cerr << "nodes done " << done << "/" << total << "\n";
}

} // namespace envlock::cli
