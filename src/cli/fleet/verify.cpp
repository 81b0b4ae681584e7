// envlock fleet verify: envlock-verify on every node through one Slurm job; the fleet report.
#include "cli/fleet/fleet.hpp"
#include "cli/fleet/verify_options.hpp"
#include "cmdline/help.hpp"
#include "fleet/verify_run.hpp"
#include "util/fs.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

namespace envlock::cli::fleet_verify_command {

namespace {

struct Options {
  FleetVerifyOptions verify;
  bool script_only = false;
  bool report_only = false;
};

Result<ExitCode> write_script_only(const fleet::VerifyRun& run) {
  std::error_code ec;
  std::filesystem::create_directories(run.script.results, ec);
  if (ec) {
    return env_error(run.script.results.string() + ": " + ec.message());
  }
  ENVLOCK_TRY_ASSIGN(const std::string text, fleet::render_verify_script(run.script));
  ENVLOCK_TRY(util::write_file_atomic(run.script.script, text, 0755));
  std::cout << run.script.script.string() << "\n";
  if (run.script.nodes.empty()) {
    std::cerr << "envlock: submit it with 'bash " << run.script.script.string()
              << "': it asks sinfo for the nodes of partition " << run.script.slurm.partition
              << " and submits itself with them\n";
  }
  return ExitCode::ok;
}

Result<ExitCode> run_verify(const Options& o) {
  if (!o.report_only) {
    ENVLOCK_TRY(require_image(o.verify));
  }
  std::vector<std::string> nodes;
  if (!o.script_only || !o.verify.nodes.empty() || o.verify.slurm.partition.empty()) {
    ENVLOCK_TRY_ASSIGN(nodes, chosen_nodes(o.verify));
  } // else the script asks for the partition's nodes when it is submitted, not envlock now
  ENVLOCK_TRY_ASSIGN(fleet::VerifyRun run, make_verify_run(o.verify, nodes, o.verify.results));
  if (o.script_only) {
    return write_script_only(run);
  }
  if (o.report_only) {
    ENVLOCK_TRY_ASSIGN(const auto report, fleet::refold_results(run));
    std::cout << fleet::fleet_report_to_table(report);
    return report.passed() ? ExitCode::ok : ExitCode::failed;
  }
  run.on_submitted = [&run](const std::string& job_id) {
    std::cerr << "submitted job " << job_id << " (" << run.script.script.string() << ")\n";
  };
  ENVLOCK_TRY_ASSIGN(const auto outcome, fleet::run_fleet_verify(run));
  if (!outcome.wait_words.empty()) {
    std::cerr << "envlock: warning: " << outcome.wait_words << "\n";
  }
  std::cout << fleet::fleet_report_to_table(outcome.report);
  std::cout << "fleet report: " << (run.script.results / formats::k_fleet_report_file).string()
            << ", " << (run.script.results / "fleet-report.md").string() << "\n";
  return outcome.report.passed() ? ExitCode::ok : ExitCode::failed;
}

} // namespace

Runner setup(CLI::App& fleet) {
  auto o = std::make_shared<Options>();
  add_fleet_verify_options(fleet, o->verify);
  fleet.add_flag("--script-only", o->script_only,
                 "Write the batch script into the results folder and stop; with --partition "
                 "alone, the script finds the partition's nodes when it is submitted with bash");
  fleet.add_flag("--report-only", o->report_only,
                 "Submit nothing; fold the reports already in the results folder again");
  cmdline::set_footer(fleet,
                      "envlock fleet verify --lock envlock.lock.json --image image.sqsh "
                      "--partition gpu",
                      "docs/manual/fleet.md");
  return [o] { return run_verify(*o); };
}

} // namespace envlock::cli::fleet_verify_command
