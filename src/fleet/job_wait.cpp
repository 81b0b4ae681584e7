#include "fleet/job_wait.hpp"

#include "util/interrupt.hpp"

#include <chrono>
#include <utility>

namespace envlock::fleet {

Result<WaitOutcome> wait_for_job(const std::string& job_id,
                                 const std::function<std::size_t()>& count_done, std::size_t total,
                                 const Progress& on_progress, int poll_milliseconds,
                                 std::chrono::seconds pending_limit) {
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
  } const cancel(job_id);
  std::size_t last = 0;
  if (on_progress) {
    on_progress(0, total);
  }
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    ENVLOCK_TRY_ASSIGN(JobState state, job_state(job_id));
    const std::size_t done = count_done();
    if (done != last && on_progress) {
      on_progress(done, total);
    }
    last = done;
    if (job_finished(state)) {
      return WaitOutcome{state, false};
    }
    if (state.state == "PENDING" && pending_limit.count() > 0 &&
        std::chrono::steady_clock::now() - start >= pending_limit) {
      cancel_job(job_id);
      return WaitOutcome{state, true};
    }
    ENVLOCK_TRY(util::interruptible_sleep(std::chrono::milliseconds(poll_milliseconds)));
  }
}

std::string slurm_words(const std::string& node, const std::string& job_id, const JobState& job,
                        const std::map<std::string, NodeState>& states) {
  std::string words = "job " + job_id + " " + job.state;
  if (!job.reason.empty() && job.reason != "None") {
    words += " (" + job.reason + ")";
  }
  const auto it = states.find(node);
  if (it == states.end()) {
    return words + "; node unknown to Slurm";
  }
  words += "; node " + it->second.state;
  return it->second.reason.empty() ? words : words + " (" + it->second.reason + ")";
}

} // namespace envlock::fleet
