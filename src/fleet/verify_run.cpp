#include "fleet/verify_run.hpp"

#include "fleet/job_wait.hpp"
#include "fleet/node_availability.hpp"
#include "fleet/node_results.hpp"
#include "fleet/slurm.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

#include <algorithm>
#include <cstdint>
#include <system_error>

namespace envlock::fleet {

namespace fs = std::filesystem;

namespace {

Status fresh_nodes_dir(const fs::path& results) {
  std::error_code ec;
  fs::remove_all(nodes_dir(results), ec);
  if (!ec) {
    fs::create_directories(nodes_dir(results), ec);
  }
  if (ec) {
    return env_error(nodes_dir(results).string() + ": " + ec.message());
  }
  return {};
}

Status write_reports(const fs::path& results, const FleetReport& report,
                     const std::string& job_id) {
  FleetReport written = report;
  written.run = {job_id, results.string()};
  ENVLOCK_TRY(formats::write_fleet_report(results / formats::k_fleet_report_file, written));
  return util::write_file_atomic(results / "fleet-report.md", fleet_report_to_markdown(report));
}

} // namespace

std::chrono::seconds default_deadline(std::size_t nodes, const StepOptions& steps,
                                      std::chrono::seconds pending_limit, int steps_per_node) {
  const auto parallel = static_cast<std::size_t>(std::max(steps.parallel, 1));
  const auto waves = static_cast<std::int64_t>((nodes + parallel - 1) / parallel);
  // A step's limit is enforced in whole minutes, checked about every 30 s: round up, add a
  // minute per step for Slurm to end it.
  const std::int64_t minutes = (static_cast<std::int64_t>(steps.step_seconds) + 59) / 60;
  const std::int64_t step = steps.step_seconds > 0 ? (minutes + 1) * 60 : k_unlimited_step_seconds;
  return pending_limit + std::chrono::seconds(waves * steps_per_node * step + 120);
}

Result<std::string> image_digest(const std::string& image) {
  if (image.rfind("docker://", 0) == 0) {
    const auto at = image.find("@sha256:");
    if (at == std::string::npos) {
      return input_error("--image: a docker:// image must be pinned by digest (REF@sha256:…): '" +
                         image + "'");
    }
    return image.substr(at + 1);
  }
  if (fs::path(image).extension() != ".sqsh") {
    return input_error("--image: expected IMAGE.sqsh or docker://REF@DIGEST: '" + image + "'");
  }
  ENVLOCK_TRY_ASSIGN(const std::string hex, util::sha256_file_hex(image));
  return "sha256:" + hex;
}

Result<VerifyOutcome> run_fleet_verify(const VerifyRun& run) {
  VerifyScript script = run.script;
  std::error_code ec;
  fs::create_directories(script.results, ec);
  if (ec) {
    return env_error(script.results.string() + ": " + ec.message());
  }
  ENVLOCK_TRY(fresh_nodes_dir(script.results));
  ENVLOCK_TRY_ASSIGN(const auto before, node_states());
  const NodeSplit split = split_by_state(script.nodes, before, !script.slurm.reservation.empty());
  for (const auto& [node, state] : split.not_waited_for) {
    ENVLOCK_TRY(write_not_verified(script.results, node,
                                   *unavailable_because(state, !script.slurm.reservation.empty())));
  }
  script.nodes = split.usable;
  VerifyOutcome outcome;
  WaitOutcome waited;
  if (!script.nodes.empty()) {
    ENVLOCK_TRY_ASSIGN(const std::string text, render_verify_script(script));
    ENVLOCK_TRY(util::write_file_atomic(script.script, text, 0755));
    ENVLOCK_TRY_ASSIGN(outcome.job_id, submit_batch(script.script));
    if (run.on_submitted) {
      run.on_submitted(outcome.job_id);
    }
    WaitLimits limits = run.limits;
    if (limits.deadline.count() == 0) {
      limits.deadline = default_deadline(script.nodes.size(), script.steps, limits.pending_limit,
                                         script.host_checker.empty() ? 1 : 2);
    }
    ENVLOCK_TRY_ASSIGN(waited,
                       wait_for_job(
                           outcome.job_id, [&] { return count_done(script.results, script.nodes); },
                           script.nodes.size(), run.on_progress, limits));
  }
  outcome.polls = waited.polls;
  outcome.failed_polls = waited.failed_polls;
  outcome.wait_words = waited.words;
  // A node that left nothing did not answer: not verified (never judged or drained for it), with
  // what Slurm or the wait says; written down, so --report-only keeps the reason, and a result
  // that lands later still wins.
  std::vector<NodeInput> inputs = read_node_results(script.results, script.nodes);
  const auto states = node_states().value_or({});
  for (const auto& input : inputs) {
    if (!input.answered && !outcome.job_id.empty()) {
      // A job that never started: its words, and the node's state.
      const std::string why =
          waited.end == WaitEnd::pending_timeout
              ? waited.words + "; " + node_words(input.node, states)
              : "no result from the node; " +
                    (waited.words.empty()
                         ? slurm_words(input.node, outcome.job_id, waited.job, states)
                         : waited.words);
      ENVLOCK_TRY(write_not_verified(script.results, input.node, why));
    }
  }
  inputs = read_node_results(script.results, run.script.nodes);
  for (auto& input : inputs) {
    if (!input.reported && !input.not_verified && !outcome.job_id.empty()) {
      input.problem =
          input.problem + "; " + slurm_words(input.node, outcome.job_id, waited.job, states);
    }
  }
  outcome.report = aggregate(std::move(inputs), run.aggregate);
  ENVLOCK_TRY(write_reports(script.results, outcome.report, outcome.job_id));
  return outcome;
}

Result<FleetReport> refold_results(const VerifyRun& run) {
  FleetReport report =
      aggregate(read_node_results(run.script.results, run.script.nodes), run.aggregate);
  ENVLOCK_TRY(write_reports(run.script.results, report, ""));
  return report;
}

} // namespace envlock::fleet
