// One fleet verification: write the batch script into the results folder, submit it, wait for
// the nodes (reporting "nodes done N/M"), read what they left, fold it into the fleet report and
// write fleet-report.json and fleet-report.md beside the per-node reports.
#pragma once

#include "fleet/batch_script.hpp"
#include "fleet/fleet_report.hpp"
#include "util/result.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace envlock::fleet {

struct VerifyRun {
  VerifyScript script;
  AggregateOptions aggregate;
  int poll_milliseconds = 300;
  // A job pending longer than this is cancelled and its nodes reported as not verified.
  std::chrono::seconds pending_limit{600};
  // Called whenever the number of nodes done changes, and once at the start.
  std::function<void(std::size_t done, std::size_t total)> on_progress;
  // Called with the job id once sbatch has accepted the job.
  std::function<void(const std::string& job_id)> on_submitted;
};

struct VerifyOutcome {
  FleetReport report;
  std::string job_id;
};

// Runs the whole verification and writes the reports. Nodes Slurm will not give the job
// (node_availability.hpp) are left out of the job and reported as not verified, as are the nodes
// of a job cancelled after pending longer than `pending_limit`; without any usable node no job is
// submitted. Fails with an input error for bad options, or an environment error when Slurm
// refuses the job or a file cannot be written; a failing node is not an error but part of the
// report.
Result<VerifyOutcome> run_fleet_verify(const VerifyRun& run);

// Folds what the nodes left in the results folder into the fleet report again, without a job
// (after a node's pass was run by hand, or a job was cancelled); writes the reports.
Result<FleetReport> refold_results(const VerifyRun& run);

// The sha256 an image is known by: docker://REF@sha256:… gives its digest, an IMAGE.sqsh the
// sha256 of the file. Fails with an input error for anything else or an unreadable file.
Result<std::string> image_digest(const std::string& image);

} // namespace envlock::fleet
