#include "util/interrupt.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <ctime>
#include <pthread.h>

namespace envlock::util {

namespace {

// What the handler touches: lock-free atomics only (async-signal-safe).
std::atomic<int> g_signal{0};
constexpr std::size_t k_children = 64;
std::array<std::atomic<pid_t>, k_children> g_children{};
static_assert(std::atomic<pid_t>::is_always_lock_free);

constexpr std::array<int, 3> k_signals{SIGINT, SIGTERM, SIGHUP};

extern "C" void on_interrupt(int signal) {
  const int saved_errno = errno;
  int none = 0;
  g_signal.compare_exchange_strong(none, signal);
  for (auto& child : g_children) {
    const pid_t pid = child.load();
    if (pid > 0) {
      (void)::kill(pid, signal);
    }
  }
  errno = saved_errno;
}

} // namespace

void install_interrupt_handlers() {
  for (const int signal : k_signals) {
    struct sigaction old {};
    if (::sigaction(signal, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) {
      continue;
    }
    struct sigaction action {};
    action.sa_handler = &on_interrupt;
    ::sigfillset(&action.sa_mask);
    action.sa_flags = 0; // no SA_RESTART: a blocking call returns EINTR and the flag is seen
    (void)::sigaction(signal, &action, nullptr);
  }
}

int interrupt_signal() noexcept {
  return g_signal.load();
}

std::string signal_name(int signal) {
  switch (signal) {
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  case SIGHUP:
    return "SIGHUP";
  default:
    return "signal " + std::to_string(signal);
  }
}

Error interrupted_error() {
  return env_error("interrupted by " + signal_name(interrupt_signal()));
}

Status interruption_check() {
  if (interrupted()) {
    return interrupted_error();
  }
  return {};
}

Status interruptible_sleep(std::chrono::milliseconds duration) {
  using Clock = std::chrono::steady_clock;
  const auto end = Clock::now() + duration;
  for (;;) {
    ENVLOCK_TRY(interruption_check());
    const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(end - Clock::now());
    if (left.count() <= 0) {
      return {};
    }
    // Short slices: the signal may be handled by another thread, which wakes no one here.
    const auto slice = std::min<std::chrono::nanoseconds>(left, std::chrono::milliseconds(50));
    const timespec ts{static_cast<time_t>(slice.count() / 1'000'000'000),
                      static_cast<long>(slice.count() % 1'000'000'000)};
    (void)::nanosleep(&ts, nullptr);
  }
}

ForwardSignals::ForwardSignals(pid_t pid) noexcept {
  for (std::size_t i = 0; i < g_children.size(); ++i) {
    pid_t empty = 0;
    if (g_children[i].compare_exchange_strong(empty, pid)) {
      m_slot = static_cast<int>(i);
      break;
    }
  }
  // A signal that came before the slot was taken (or when every slot is taken) is passed on here.
  if (const int signal = interrupt_signal(); signal != 0) {
    (void)::kill(pid, signal);
  }
}

ForwardSignals::~ForwardSignals() {
  if (m_slot >= 0) {
    g_children[static_cast<std::size_t>(m_slot)].store(0);
  }
}

int exit_after(int exit_code, bool error_reported, const char* program) {
  const int signal = interrupt_signal();
  if (signal == 0) {
    return exit_code;
  }
  if (!error_reported) {
    (void)std::fprintf(stderr, "%s: interrupted by %s\n", program, signal_name(signal).c_str());
  }
  (void)std::fflush(nullptr);
  (void)::signal(signal, SIG_DFL);
  sigset_t set;
  ::sigemptyset(&set);
  ::sigaddset(&set, signal);
  (void)::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  (void)::raise(signal);
  return 128 + signal; // not reached unless the signal is blocked in a way we cannot undo
}

void set_interrupt_for_testing(int signal) noexcept {
  g_signal.store(signal);
}

} // namespace envlock::util
