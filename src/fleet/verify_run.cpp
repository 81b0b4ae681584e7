#include "fleet/verify_run.hpp"

#include "fleet/job_wait.hpp"
#include "fleet/node_availability.hpp"
#include "fleet/node_results.hpp"
#include "fleet/slurm.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

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
  std::string job_id;
  JobState job;
  if (!script.nodes.empty()) {
    ENVLOCK_TRY_ASSIGN(const std::string text, render_verify_script(script));
    ENVLOCK_TRY(util::write_file_atomic(script.script, text, 0755));
    ENVLOCK_TRY_ASSIGN(job_id, submit_batch(script.script));
    if (run.on_submitted) {
      run.on_submitted(job_id);
    }
    ENVLOCK_TRY_ASSIGN(const WaitOutcome waited,
                       wait_for_job(
                           job_id, [&] { return count_done(script.results, script.nodes); },
                           script.nodes.size(), run.on_progress, run.poll_milliseconds,
                           run.pending_limit));
    job = waited.job;
    if (waited.pending_timeout) {
      const std::string reason =
          "job " + job_id + " pending for more than " + std::to_string(run.pending_limit.count()) +
          " s (" + (job.reason.empty() ? "no reason given" : job.reason) + "); cancelled";
      for (const auto& node : script.nodes) {
        ENVLOCK_TRY(write_not_verified(script.results, node, reason));
      }
    }
  }
  std::vector<NodeInput> inputs = read_node_results(script.results, run.script.nodes);
  const auto states = node_states().value_or({});
  for (auto& input : inputs) {
    if (!input.reported && !input.not_verified) {
      input.problem = input.problem + "; " + slurm_words(input.node, job_id, job, states);
    }
  }
  VerifyOutcome outcome{aggregate(std::move(inputs), run.aggregate), job_id};
  ENVLOCK_TRY(write_reports(script.results, outcome.report, job_id));
  return outcome;
}

Result<FleetReport> refold_results(const VerifyRun& run) {
  FleetReport report =
      aggregate(read_node_results(run.script.results, run.script.nodes), run.aggregate);
  ENVLOCK_TRY(write_reports(run.script.results, report, ""));
  return report;
}

} // namespace envlock::fleet
