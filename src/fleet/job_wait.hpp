// Waiting for a fleet job: poll Slurm until the job is over, reporting how many nodes are done.
#pragma once

#include "fleet/slurm.hpp"
#include "util/result.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <string>

namespace envlock::fleet {

using Progress = std::function<void(std::size_t done, std::size_t total)>;

struct WaitOutcome {
  JobState job;
  // The job stayed pending longer than the limit and was cancelled; `job.reason` is the last
  // pending reason Slurm gave (Resources, ReqNodeNotAvail, ...).
  bool pending_timeout = false;
};

// Polls every `poll_milliseconds` until the job has finished; `count_done` says how many of the
// `total` nodes are done, and `on_progress` (when set) hears every change, and 0 at the start.
// A job still pending after `pending_limit` (0: no limit) is cancelled. Fails with an environment
// error when scontrol cannot be run.
Result<WaitOutcome> wait_for_job(const std::string& job_id,
                                 const std::function<std::size_t()>& count_done, std::size_t total,
                                 const Progress& on_progress, int poll_milliseconds,
                                 std::chrono::seconds pending_limit = std::chrono::seconds(0));

// What Slurm says about a node that left no result: "job 7 FAILED (NonZeroExitCode); node
// node3 down* (Not responding)".
std::string slurm_words(const std::string& node, const std::string& job_id, const JobState& job,
                        const std::map<std::string, NodeState>& states);

} // namespace envlock::fleet
