// envlock fleet distribute IMAGE.sqsh --result squashfs-result.json --dest PATH: the image to
// every node's local storage through Slurm (sbcast), each copy checked by its sha256.
#include "fleet/distribute.hpp"
#include "cli/fleet/fleet.hpp"
#include "cli/fleet/verify_options.hpp"
#include "cmdline/help.hpp"
#include "fleet/hostlist.hpp"
#include "util/sha256.hpp"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

namespace envlock::cli::fleet_distribute_command {

namespace fs = std::filesystem;

namespace {

struct Options {
  std::string image;
  std::string result;
  std::string dest;
  std::string nodes;
  std::string results = "fleet-distribute";
  bool check_only = false;
  fleet::SlurmOptions slurm;
  int wait_timeout_seconds = 600;
  int deadline_seconds = 0;
  fleet::StepOptions steps{64, 900};
};

Result<std::vector<std::string>> nodes_of(const Options& o) {
  if (!o.nodes.empty()) {
    return fleet::expand_hostlist(o.nodes);
  }
  if (!o.slurm.partition.empty()) {
    return fleet::partition_nodes(o.slurm.partition);
  }
  return input_error("give the nodes: --nodes LIST or --partition P");
}

Result<ExitCode> run_distribute(const Options& o) {
  if (!fs::path(o.dest).is_absolute()) {
    return input_error("--dest: must be an absolute path on the nodes: '" + o.dest + "'");
  }
  ENVLOCK_TRY_ASSIGN(const auto nodes, nodes_of(o));
  ENVLOCK_TRY_ASSIGN(const std::string expected, fleet::recorded_sqsh_sha256(o.result));
  if (!o.check_only) {
    ENVLOCK_TRY_ASSIGN(const std::string local, util::sha256_file_hex(o.image));
    if (local != expected) {
      return check_failed(o.image + ": sha256 " + local + " differs from " + o.result + "'s " +
                          expected + "; not distributed");
    }
  }
  fleet::DistributeRun run;
  run.expected = expected;
  auto& script = run.script;
  script.nodes = nodes;
  script.slurm = o.slurm;
  script.results = fs::absolute(o.results).lexically_normal();
  script.script = script.results / "fleet-distribute.sbatch";
  script.source = fs::absolute(o.image).lexically_normal();
  script.dest = o.dest;
  script.copy = !o.check_only;
  script.steps = o.steps;
  run.limits.pending_limit = std::chrono::seconds(o.wait_timeout_seconds);
  run.limits.deadline = std::chrono::seconds(o.deadline_seconds);
  run.on_progress = [](std::size_t done, std::size_t total) {
    std::cerr << "nodes done " << done << "/" << total << "\n";
  };
  run.on_submitted = [&script](const std::string& job_id) {
    std::cerr << "submitted job " << job_id << " (" << script.script.string() << ")\n";
  };
  ENVLOCK_TRY_ASSIGN(const auto report, fleet::run_distribute(run));
  std::cout << fleet::distribute_report_to_table(report);
  std::cout << "distribute report: "
            << (script.results / formats::k_distribute_report_file).string() << "\n";
  return report.passed() ? ExitCode::ok : ExitCode::failed;
}

} // namespace

Runner setup(CLI::App& fleet) {
  auto o = std::make_shared<Options>();
  fleet.add_option("image", o->image, "The .sqsh to distribute")->required();
  fleet.add_option("--result", o->result, "Its squashfs-result.json (the recorded sha256)")
      ->required()
      ->type_name("FILE");
  fleet.add_option("--dest", o->dest, "The path of the copy on every node (absolute)")
      ->required()
      ->type_name("PATH");
  fleet.add_option("--nodes", o->nodes, "The nodes, as a Slurm host list")->type_name("HOSTLIST");
  fleet.add_option("--partition", o->slurm.partition, "The partition")->type_name("NAME");
  fleet.add_option("--results", o->results, "Where the script and the report go")
      ->capture_default_str()
      ->type_name("DIR");
  fleet.add_flag("--check-only", o->check_only, "Do not copy; only check the copies already there");
  add_sbatch_options(fleet, o->slurm);
  add_wait_options(fleet, o->wait_timeout_seconds, o->deadline_seconds, o->steps);
  cmdline::set_footer(fleet,
                      "envlock fleet distribute image.sqsh --result squashfs-result.json "
                      "--dest /local/image.sqsh --partition gpu",
                      "docs/manual/fleet.md");
  return [o] { return run_distribute(*o); };
}

} // namespace envlock::cli::fleet_distribute_command
