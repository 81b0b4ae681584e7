// Waiting for a fleet job: poll Slurm until the job is over, reporting how many nodes are done.
// Every wait ends by envlock's own limits, whatever Slurm does: a pending limit, a deadline for
// the whole wait, and a bounded retry of a failed poll.
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

struct WaitLimits {
  // Slurm is asked at this interval at first, then less and less often (x1.5 a poll, up to
  // `max_poll_milliseconds`), and at this interval again once every node is done; the nodes'
  // files are counted as often, at least every second.
  int poll_milliseconds = 300;
  int max_poll_milliseconds = 5000;
  // A job still pending after this is cancelled (0: no limit).
  std::chrono::seconds pending_limit{0};
  // The whole wait, from its start: a job not over by then is cancelled (0: no deadline; a failed
  // poll is then retried k_max_failed_polls times).
  std::chrono::seconds deadline{0};
};

// Consecutive failed polls after which a wait without a deadline gives up (backing off 1, 2, 4,
// 8, 16, 16, ... s between them).
inline constexpr int k_max_failed_polls = 8;

enum class WaitEnd {
  finished,        // Slurm says the job is over
  pending_timeout, // pending longer than the limit; cancelled
  deadline,        // not over by the deadline; cancelled
  unreachable,     // Slurm could not be asked (scontrol failed every retry); cancel tried
};

struct WaitOutcome {
  JobState job; // the last state Slurm gave (empty state when it never answered)
  WaitEnd end = WaitEnd::finished;
  // Why the wait ended early and what became of the job, for the nodes without a result: "job 7
  // pending for more than 2 s (Resources); cancelled". Empty when the job finished.
  std::string words;
  std::size_t polls = 0;        // scontrol calls
  std::size_t failed_polls = 0; // of which failed
};

// Polls until the job has finished or a limit is reached; `count_done` says how many of the
// `total` nodes are done, and `on_progress` (when set) hears every change, and 0 at the start.
// Never fails for Slurm's sake: a poll that fails is retried with back-off, and a job given up on
// is cancelled (or `words` says it could not be). Fails only when interrupted (the job is then
// cancelled).
Result<WaitOutcome> wait_for_job(const std::string& job_id,
                                 const std::function<std::size_t()>& count_done, std::size_t total,
                                 const Progress& on_progress, const WaitLimits& limits);

// What Slurm says of a node now: "node allocated", "node drained (bad fan)", "node unknown to
// Slurm".
std::string node_words(const std::string& node, const std::map<std::string, NodeState>& states);

// What Slurm says about a node that left no result: "job 7 FAILED (NonZeroExitCode); node
// node3 down* (Not responding)".
std::string slurm_words(const std::string& node, const std::string& job_id, const JobState& job,
                        const std::map<std::string, NodeState>& states);

} // namespace envlock::fleet
