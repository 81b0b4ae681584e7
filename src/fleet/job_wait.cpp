#include "fleet/job_wait.hpp"

#include "util/interrupt.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

namespace envlock::fleet {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Interrupted (squeue and the sleep fail then): the job is envlock's, and does not go on
// running, or waiting for a node, without it.
class CancelWhenInterrupted {
public:
  explicit CancelWhenInterrupted(std::string job) : m_job(std::move(job)) {}
  CancelWhenInterrupted(const CancelWhenInterrupted&) = delete;
  CancelWhenInterrupted& operator=(const CancelWhenInterrupted&) = delete;
  CancelWhenInterrupted(CancelWhenInterrupted&&) = delete;
  CancelWhenInterrupted& operator=(CancelWhenInterrupted&&) = delete;
  ~CancelWhenInterrupted() {
    if (util::interrupted()) {
      cancel_job(m_job);
    }
  }

private:
  std::string m_job;
};

std::string seconds_words(std::chrono::seconds s) {
  return std::to_string(s.count()) + " s";
}

// Cancels the job given up on and says so, or says that it may still run.
std::string give_up(const std::string& job_id) {
  return cancel_job(job_id) ? "; cancelled"
                            : "; scancel failed too: job " + job_id + " may still be running";
}

} // namespace

Result<WaitOutcome> wait_for_job(const std::string& job_id,
                                 const std::function<std::size_t()>& count_done, std::size_t total,
                                 const Progress& on_progress, const WaitLimits& limits) {
  const CancelWhenInterrupted cancel(job_id);
  WaitOutcome out;
  std::size_t last = 0;
  if (on_progress) {
    on_progress(0, total);
  }
  const auto start = Clock::now();
  const milliseconds base(std::max(limits.poll_milliseconds, 1));
  const milliseconds most(std::max(limits.max_poll_milliseconds, limits.poll_milliseconds));
  milliseconds poll_every = base;
  auto next_poll = start;
  auto pending_since = start;
  int failed_in_a_row = 0;
  std::string last_error;
  while (true) {
    const auto now = Clock::now();
    const std::size_t done = count_done();
    if (done != last && on_progress) {
      on_progress(done, total);
    }
    last = done;
    if (done >= total && failed_in_a_row == 0) {
      poll_every = base; // the job is about to end: hear it soon
      next_poll = std::min(next_poll, now);
    }
    if (now >= next_poll) {
      ++out.polls;
      auto state = job_state(job_id);
      if (!state) {
        ENVLOCK_TRY(util::interruption_check());
        ++out.failed_polls;
        ++failed_in_a_row;
        last_error = state.error().message;
        const bool past_deadline = limits.deadline.count() > 0 && now - start >= limits.deadline;
        if (past_deadline ||
            (limits.deadline.count() == 0 && failed_in_a_row >= k_max_failed_polls)) {
          out.end = WaitEnd::unreachable;
          out.words = "Slurm could not be asked about job " + job_id + " (" +
                      std::to_string(failed_in_a_row) +
                      " polls failed in a row, the last: " + last_error + ")" + give_up(job_id);
          return out;
        }
        // Back off: 1, 2, 4, 8, 16, 16, ... s.
        next_poll = now + std::chrono::seconds(1 << std::min(failed_in_a_row - 1, 4));
        if (limits.deadline.count() > 0) {
          next_poll = std::min(next_poll, start + limits.deadline);
        }
      } else {
        failed_in_a_row = 0;
        if (state->state == "PENDING" && !out.job.state.empty() && out.job.state != "PENDING") {
          pending_since = now; // pending again (requeued): the limit counts from now
        }
        out.job = *state;
        if (job_finished(out.job)) {
          // The last files may land just after the job ends on a shared folder: count again.
          const std::size_t final_done = count_done();
          if (final_done != last && on_progress) {
            on_progress(final_done, total);
          }
          return out;
        }
        if (out.job.state == "PENDING" && limits.pending_limit.count() > 0 &&
            now - pending_since >= limits.pending_limit) {
          out.end = WaitEnd::pending_timeout;
          out.words = "job " + job_id + " pending for more than " +
                      seconds_words(limits.pending_limit) + " (" +
                      (out.job.reason.empty() ? "no reason given" : out.job.reason) + ")" +
                      give_up(job_id);
          return out;
        }
        next_poll = now + poll_every;
        poll_every = std::min(most, poll_every * 3 / 2);
      }
    }
    if (limits.deadline.count() > 0 && now - start >= limits.deadline && failed_in_a_row == 0) {
      out.end = WaitEnd::deadline;
      out.words = "job " + job_id + " " + (out.job.state.empty() ? "" : out.job.state + " ") +
                  "not over by the " + seconds_words(limits.deadline) + " deadline" +
                  give_up(job_id);
      return out;
    }
    // The files are counted as often as Slurm is asked, at least every second: the cost of a wait
    // stays linear in the node count, whatever its length.
    ENVLOCK_TRY(util::interruptible_sleep(std::min(poll_every, milliseconds(1000))));
  }
}

std::string node_words(const std::string& node, const std::map<std::string, NodeState>& states) {
  const auto it = states.find(node);
  if (it == states.end()) {
    return "node unknown to Slurm";
  }
  const std::string words = "node " + it->second.state;
  return it->second.reason.empty() ? words : words + " (" + it->second.reason + ")";
}

std::string slurm_words(const std::string& node, const std::string& job_id, const JobState& job,
                        const std::map<std::string, NodeState>& states) {
  std::string words = "job " + job_id + " " + job.state;
  if (!job.reason.empty() && job.reason != "None") {
    words += " (" + job.reason + ")";
  }
  return words + "; " + node_words(node, states);
}

} // namespace envlock::fleet
