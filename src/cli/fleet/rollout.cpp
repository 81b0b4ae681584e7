// envlock fleet rollout --batches 1,8,64 [--state FILE]: the seed's roll-out order, verifying the
// reference node, then a small group, then the rest batch by batch; stops at the first batch with
// a failure and resumes there when run again (docs/manual/fleet.md).
#include "cli/fleet/fleet.hpp"
#include "cli/fleet/verify_options.hpp"
#include "cmdline/help.hpp"
#include "fleet/rollout_plan.hpp"
#include "formats/rollout_state.hpp"
#include "util/strings.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

namespace envlock::cli::fleet_rollout_command {

namespace fs = std::filesystem;

namespace {

struct Options {
  FleetVerifyOptions verify;
  std::string batches;
  std::string state_path = formats::k_rollout_state_file;
};

// The state to go on from: the file's when it is for this image and lock, else a new plan that
// keeps what the file knew about each node.
Result<fleet::RolloutState> starting_state(const Options& o, const fleet::VerifyRun& run,
                                           const std::vector<std::string>& nodes) {
  ENVLOCK_TRY_ASSIGN(const auto sizes, fleet::parse_batch_sizes(o.batches));
  fleet::RolloutState fresh;
  fresh.image = run.aggregate.image;
  fresh.image_digest = run.aggregate.image_digest;
  fresh.lock_sha256 = run.aggregate.lock_sha256;
  fresh.batches = fleet::plan_batches(nodes, o.verify.reference, sizes);
  std::error_code ec;
  if (!fs::exists(o.state_path, ec)) {
    return fresh;
  }
  ENVLOCK_TRY_ASSIGN(fleet::RolloutState state, formats::read_rollout_state(o.state_path));
  if (state.image_digest == fresh.image_digest && state.lock_sha256 == fresh.lock_sha256) {
    std::cerr << "resuming the roll-out in " << o.state_path << " at batch "
              << state.next_batch() + 1 << "/" << state.batches.size() << "\n";
    state.status = "running";
    return state;
  }
  std::cerr << "a new roll-out: " << o.state_path << " was for image " << state.image_digest
            << "\n";
  fresh.nodes = std::move(state.nodes);
  return fresh;
}

Result<ExitCode> run_rollout(const Options& o) {
  ENVLOCK_TRY(require_image(o.verify));
  ENVLOCK_TRY_ASSIGN(const auto nodes, chosen_nodes(o.verify));
  ENVLOCK_TRY_ASSIGN(const fleet::VerifyRun base,
                     make_verify_run(o.verify, nodes, o.verify.results));
  ENVLOCK_TRY_ASSIGN(fleet::RolloutState state, starting_state(o, base, nodes));
  const std::size_t total = state.batches.size();
  for (std::size_t i = 0; i < state.next_batch(); ++i) {
    std::cout << "batch " << i + 1 << "/" << total << ": " << util::join(state.batches[i], ",")
              << " passed earlier with " << state.image_digest << "\n";
  }
  for (std::size_t i = state.next_batch(); i < total; i = state.next_batch()) {
    const auto& batch = state.batches[i];
    std::cout << "batch " << i + 1 << "/" << total << ": " << util::join(batch, ",") << "\n";
    std::cout.flush();
    fleet::VerifyRun run = base;
    run.script.nodes = batch;
    run.script.results = base.script.results / ("batch-" + std::to_string(i + 1));
    run.script.script = run.script.results / "fleet-verify.sbatch";
    run.aggregate.reference.clear();
    ENVLOCK_TRY_ASSIGN(const auto outcome, fleet::run_fleet_verify(run));
    std::cout << fleet::fleet_report_to_table(outcome.report);
    for (const auto& node : batch) {
      const bool passed = outcome.report.node_outcomes.at(node) == fleet::NodeOutcome::pass;
      state.nodes[node] = {passed ? "passed" : "failed", state.image_digest, i + 1,
                           run.script.results.string()};
    }
    if (!outcome.report.passed()) {
      state.status = "stopped";
      ENVLOCK_TRY(formats::write_rollout_state(o.state_path, state));
      std::cout << "roll-out stopped at batch " << i + 1 << "/" << total
                << "; fix the failed nodes and run the same command again to resume\n";
      return ExitCode::failed;
    }
    ENVLOCK_TRY(formats::write_rollout_state(o.state_path, state));
  }
  state.status = "done";
  ENVLOCK_TRY(formats::write_rollout_state(o.state_path, state));
  std::size_t count = 0;
  for (const auto& batch : state.batches) {
    count += batch.size();
  }
  std::cout << "roll-out done: " << count << " nodes passed with " << state.image_digest << "\n";
  return ExitCode::ok;
}

} // namespace

Runner setup(CLI::App& fleet) {
  auto o = std::make_shared<Options>();
  add_fleet_verify_options(fleet, o->verify);
  fleet.add_option("--batches", o->batches, "Batch sizes in order, e.g. 1,8,64 (the last repeats)")
      ->required()
      ->type_name("SIZES");
  fleet.add_option("--state", o->state_path, "The roll-out's state file")
      ->capture_default_str()
      ->type_name("FILE");
  cmdline::set_footer(fleet,
                      "envlock fleet rollout --lock envlock.lock.json --image image.sqsh "
                      "--partition gpu --batches 1,8,64",
                      "docs/manual/fleet.md");
  return [o] { return run_rollout(*o); };
}

} // namespace envlock::cli::fleet_rollout_command
