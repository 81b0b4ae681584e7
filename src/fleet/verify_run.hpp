// One fleet verification: write the batch script into the results folder, submit it, wait for
// the nodes (reporting "nodes done N/M"), read what they left, fold it into the fleet report and
// write fleet-report.json and fleet-report.md beside the per-node reports.
#pragma once

#include "fleet/batch_script.hpp"
#include "fleet/fleet_report.hpp"
#include "fleet/job_wait.hpp"
#include "util/result.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace envlock::fleet {

struct VerifyRun {
  VerifyScript script;
  AggregateOptions aggregate;
  // The wait's limits: a job pending longer than `pending_limit`, or not over by `deadline`, is
  // cancelled and its nodes without a result reported as not verified.
  WaitLimits limits{300, 5000, std::chrono::seconds(600), std::chrono::seconds(0)};
  // Called whenever the number of nodes done changes, and once at the start.
  std::function<void(std::size_t done, std::size_t total)> on_progress;
  // Called with the job id once sbatch has accepted the job.
  std::function<void(const std::string& job_id)> on_submitted;
};

struct VerifyOutcome {
  FleetReport report;
  std::string job_id;
  std::size_t polls = 0;        // scontrol calls of the wait
  std::size_t failed_polls = 0; // of which failed
  std::string wait_words;       // why the wait ended early, and what became of the job
};

// Runs the whole verification and writes the reports. Nodes Slurm will not give the job
// (node_availability.hpp) are left out of the job and reported as not verified, as are the nodes
// that left no result (lost, or the job was given up on: pending past the limit, not over by the
// deadline, Slurm not answering); without any usable node no job is submitted. Every result that
// reached the results folder is used. Fails with an input error for bad options, or an
// environment error when Slurm refuses the job or a file cannot be written; a failing node, or a
// Slurm that stops answering, is not an error but part of the report.
Result<VerifyOutcome> run_fleet_verify(const VerifyRun& run);

// Folds what the nodes left in the results folder into the fleet report again, without a job
// (after a node's pass was run by hand, or a job was cancelled); writes the reports.
Result<FleetReport> refold_results(const VerifyRun& run);

// A step without a time limit of its own is counted as this long by default_deadline.
inline constexpr std::int64_t k_unlimited_step_seconds = 3600;

// The deadline of a wait when none is given: the pending limit, then every wave of `parallel`
// steps at its time limit (rounded up to Slurm's minutes, plus a minute to end it),
// `steps_per_node` in a row, plus 2 minutes.
std::chrono::seconds default_deadline(std::size_t nodes, const StepOptions& steps,
                                      std::chrono::seconds pending_limit, int steps_per_node);

// The sha256 an image is known by: docker://REF@sha256:… gives its digest, an IMAGE.sqsh the
// sha256 of the file. Fails with an input error for anything else or an unreadable file.
Result<std::string> image_digest(const std::string& image);

} // namespace envlock::fleet
