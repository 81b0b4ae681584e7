// Interruption by SIGINT, SIGTERM or SIGHUP (Ctrl-C, a Slurm time limit, a CI cancel): the
// handler only records the signal and forwards it to the programs envlock is running; the work
// in progress notices (interruption_check, run_process, the HTTP transfers, the waits) and fails
// with "interrupted by SIGNAL", which unwinds through the destructors that remove temporary
// files and folders (TempDir, AtomicFile); main then dies of the same signal (exit status
// 128 + N).
#pragma once

#include "util/result.hpp"

#include <chrono>
#include <string>
#include <sys/types.h>

namespace envlock::util {

// Installs the handlers (again: calling it twice is harmless). A signal that is ignored when
// envlock starts (nohup, a background job of a non-interactive shell) stays ignored.
void install_interrupt_handlers();

// The signal that interrupted this process, or 0.
[[nodiscard]] int interrupt_signal() noexcept;
[[nodiscard]] inline bool interrupted() noexcept {
  return interrupt_signal() != 0;
}

// "SIGTERM" and the like.
[[nodiscard]] std::string signal_name(int signal);

// The error of interrupted work: "interrupted by SIGTERM".
[[nodiscard]] Error interrupted_error();

// Fails with interrupted_error() once a signal has come; what long loops call between steps.
[[nodiscard]] Status interruption_check();

// Sleeps for `duration`, waking early when a signal comes; fails with interrupted_error() then.
Status interruptible_sleep(std::chrono::milliseconds duration);

// While it lives, a signal that comes is forwarded to `pid` (a child run_process started). A
// signal that came before is forwarded at once.
class ForwardSignals {
public:
  explicit ForwardSignals(pid_t pid) noexcept;
  ForwardSignals(const ForwardSignals&) = delete;
  ForwardSignals& operator=(const ForwardSignals&) = delete;
  ForwardSignals(ForwardSignals&&) = delete;
  ForwardSignals& operator=(ForwardSignals&&) = delete;
  ~ForwardSignals();

private:
  int m_slot = -1;
};

// What main returns: `exit_code`, or, after a signal, nothing: it says so on stderr (unless
// `error_reported`: the command's error said it), restores the signal's default action and
// raises it again, so that the caller sees `program` die of it (exit status 128 + N).
int exit_after(int exit_code, bool error_reported, const char* program);

// For tests: records `signal` as if it had come (0 forgets it), without forwarding it.
void set_interrupt_for_testing(int signal) noexcept;

} // namespace envlock::util
