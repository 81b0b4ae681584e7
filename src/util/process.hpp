// Running other programs (git, buildah, mksquashfs, sbatch, ...) without a shell: argv in,
// exit status and captured output back.
#pragma once

#include "util/result.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace envlock::util {

enum class Capture { both, none, stderr_only };

// How long an interrupted program may take to clean up after the signal before SIGKILL.
inline constexpr std::chrono::seconds k_interrupt_grace{10};

struct ProcessOptions {
  std::optional<std::filesystem::path> cwd;
  // Variables set (or overridden) in the child's environment.
  std::map<std::string, std::string> env;
  // When set, the child's environment is exactly `env` (plus PATH from ours if `env` lacks it).
  bool clean_env = false;
  Capture capture = Capture::both;
  std::optional<std::string> stdin_data;
  // Called with each chunk of stdout/stderr as it arrives (e.g. to stream a build log).
  std::function<void(std::string_view)> on_output;
  // Umask for the child; unchanged when empty.
  std::optional<unsigned> umask;
  // The child is killed (SIGKILL) when this process dies, even by SIGKILL, so that no work of a
  // dead parent goes on behind its back.
  bool die_with_parent = false;
  // After SIGINT, SIGTERM or SIGHUP (util/interrupt.hpp) run_process starts nothing and fails
  // with "interrupted by SIGNAL"; a clean-up command (scancel) sets this to run all the same.
  bool when_interrupted = false;
  // How long the program may take to end after a signal passed on before SIGKILL.
  std::chrono::milliseconds interrupt_grace = k_interrupt_grace;
  // When >= 0, the child's standard output (error) is this descriptor instead of being captured:
  // the write end of a pipe that the caller reads as the program writes (start_process), or a
  // file.
  int stdout_fd = -1;
  int stderr_fd = -1;
};

struct ProcessResult {
  int exit_code = 0; // exit status, or 128 + signal number
  std::string out;   // captured stdout
  std::string err;   // captured stderr
};

// Runs argv[0] (searched in PATH) with the given arguments and waits for it. Fails with an
// environment error only when the program cannot be started ("PROGRAM: not found" and the like),
// or when envlock is interrupted: the signal is passed on to the program, which gets
// interrupt_grace to end before it is killed, and the call fails with "interrupted by
// SIGNAL". A non-zero exit is a value in ProcessResult.
Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                  const ProcessOptions& options = {});

// A program start_process started, until it is waited for; one that is not is killed (SIGKILL)
// and reaped by the destructor.
class StartedProcess {
public:
  explicit StartedProcess(int pid) : m_pid(pid) {}
  StartedProcess(const StartedProcess&) = delete;
  StartedProcess& operator=(const StartedProcess&) = delete;
  StartedProcess(StartedProcess&& other) noexcept : m_pid(std::exchange(other.m_pid, -1)) {}
  StartedProcess& operator=(StartedProcess&&) = delete;
  ~StartedProcess();
  // Waits for the program to end: its exit status, or 128 + the signal that ended it.
  int wait();

private:
  int m_pid = -1;
};

// Starts argv[0] (searched in PATH) as run_process does, but does not wait for it: its standard
// output and error go to options.stdout_fd and stderr_fd (inherited when -1), its standard
// input is /dev/null, nothing is captured. Fails like run_process when it cannot be started.
Result<StartedProcess> start_process(const std::vector<std::string>& argv,
                                     const ProcessOptions& options);

// The full path of `program` in PATH, or nothing.
std::optional<std::filesystem::path> find_program(std::string_view program);

} // namespace envlock::util
