#include "../testutil.hpp"
#include "util/interrupt.hpp"
#include "util/process.hpp"

#include <array>
#include <chrono>
#include <csignal>
#include <doctest/doctest.h>
#include <filesystem>
#include <optional>
#include <thread>
#include <unistd.h>

namespace {

// Installs envlock's handlers for one test and puts back the actions that were there before.
// Each signal starts from its default action, so the test does not depend on how it was started
// (under nohup, SIGHUP comes ignored, and envlock leaves an ignored signal ignored).
class InterruptHandlersForTest {
public:
  InterruptHandlersForTest() {
    for (std::size_t i = 0; i < k_caught.size(); ++i) {
      (void)::sigaction(k_caught[i], nullptr, &m_saved[i]);
      (void)::signal(k_caught[i], SIG_DFL);
    }
    envlock::util::install_interrupt_handlers();
    envlock::util::set_interrupt_for_testing(0);
  }
  InterruptHandlersForTest(const InterruptHandlersForTest&) = delete;
  InterruptHandlersForTest& operator=(const InterruptHandlersForTest&) = delete;
  InterruptHandlersForTest(InterruptHandlersForTest&&) = delete;
  InterruptHandlersForTest& operator=(InterruptHandlersForTest&&) = delete;
  ~InterruptHandlersForTest() {
    envlock::util::set_interrupt_for_testing(0);
    for (std::size_t i = 0; i < k_caught.size(); ++i) {
      (void)::sigaction(k_caught[i], &m_saved[i], nullptr);
    }
  }

private:
  static constexpr std::array<int, 3> k_caught{SIGINT, SIGTERM, SIGHUP};
  std::array<struct sigaction, 3> m_saved{};
};

} // namespace

TEST_SUITE_BEGIN("util");

TEST_CASE("util::interrupt: a signal ignored by whoever started envlock stays ignored") {
  const InterruptHandlersForTest handlers; // puts every action back at the end
  (void)::signal(SIGHUP, SIG_IGN);         // as nohup leaves it
  envlock::util::install_interrupt_handlers();
  envlock::util::set_interrupt_for_testing(0);
  struct sigaction now {};
  REQUIRE(::sigaction(SIGHUP, nullptr, &now) == 0);
  CHECK((now.sa_handler == SIG_IGN)); // (a function pointer doctest cannot print)
  REQUIRE(::raise(SIGHUP) == 0);
  CHECK(envlock::util::interrupt_signal() == 0);
  CHECK(envlock::util::interruption_check());
}

TEST_CASE("util::interrupt: a signal is recorded, not fatal, and fails the work that checks") {
  const InterruptHandlersForTest handlers;
  CHECK_FALSE(envlock::util::interrupted());
  CHECK(envlock::util::interruption_check());
  REQUIRE(::raise(SIGHUP) == 0);
  CHECK(envlock::util::interrupt_signal() == SIGHUP);
  const auto checked = envlock::util::interruption_check();
  REQUIRE_FALSE(checked);
  CHECK(checked.error().message == "interrupted by SIGHUP");
  CHECK(checked.error().code == envlock::ExitCode::environment);
  // A second signal does not replace the first.
  REQUIRE(::raise(SIGINT) == 0);
  CHECK(envlock::util::interrupt_signal() == SIGHUP);
}

TEST_CASE("util::interrupt: after a signal a sleep ends at once and no program starts") {
  const InterruptHandlersForTest handlers;
  envlock::util::set_interrupt_for_testing(SIGTERM);
  const auto slept = envlock::util::interruptible_sleep(std::chrono::hours(1));
  REQUIRE_FALSE(slept);
  CHECK(slept.error().message == "interrupted by SIGTERM");
  const auto refused = envlock::util::run_process({"true"});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message == "interrupted by SIGTERM");
  // A clean-up command runs all the same.
  envlock::util::ProcessOptions cleanup;
  cleanup.when_interrupted = true;
  const auto ran = envlock::util::run_process({"sh", "-c", "echo cleaned"}, cleanup);
  REQUIRE(ran);
  CHECK(ran->exit_code == 0);
  CHECK(ran->out == "cleaned\n");
}

TEST_CASE("util::interrupt: the signal is passed on to the running program") {
  const InterruptHandlersForTest handlers;
  const auto dir = envlock::test::temp_dir();
  const std::filesystem::path ready = dir.path() / "ready";
  // The program says it runs, then waits; only the signal passed on ends it before 600 s.
  const std::string script = "echo $$ > '" + ready.string() + "'; exec sleep 600";
  std::optional<envlock::Result<envlock::util::ProcessResult>> outcome;
  std::thread runner([&] { outcome = envlock::util::run_process({"sh", "-c", script}); });
  while (!std::filesystem::exists(ready)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(::kill(::getpid(), SIGTERM) == 0);
  runner.join();
  REQUIRE(outcome.has_value());
  REQUIRE_FALSE(*outcome);
  CHECK(outcome->error().message == "interrupted by SIGTERM");
}

TEST_CASE("util::interrupt: a program that ignores the signal is killed after the grace time") {
  const InterruptHandlersForTest handlers;
  const auto dir = envlock::test::temp_dir();
  const std::filesystem::path ready = dir.path() / "ready";
  // It ignores SIGTERM and keeps a child of its own (holding the output pipes) running.
  const std::string script =
      "trap '' TERM; echo $$ > '" + ready.string() + "'; while :; do sleep 1; done";
  envlock::util::ProcessOptions options;
  options.interrupt_grace = std::chrono::milliseconds(200);
  std::optional<envlock::Result<envlock::util::ProcessResult>> outcome;
  std::thread runner([&] { outcome = envlock::util::run_process({"sh", "-c", script}, options); });
  while (!std::filesystem::exists(ready)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(::kill(::getpid(), SIGTERM) == 0);
  runner.join();
  REQUIRE(outcome.has_value());
  REQUIRE_FALSE(*outcome);
  CHECK(outcome->error().message == "interrupted by SIGTERM");
}

TEST_CASE("util::signal_name") {
  CHECK(envlock::util::signal_name(SIGINT) == "SIGINT");
  CHECK(envlock::util::signal_name(SIGTERM) == "SIGTERM");
  CHECK(envlock::util::signal_name(SIGHUP) == "SIGHUP");
  CHECK(envlock::util::signal_name(SIGUSR1) == "signal " + std::to_string(SIGUSR1));
}

TEST_SUITE_END();
