#include "util/process.hpp"

#include "util/fd.hpp"
#include "util/interrupt.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ; // NOLINT(readability-redundant-declaration)

namespace envlock::util {

namespace fs = std::filesystem;

std::optional<fs::path> find_program(std::string_view program) {
  if (program.find('/') != std::string_view::npos) {
    if (::access(std::string(program).c_str(), X_OK) == 0) {
      return fs::path(program);
    }
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::string_view rest = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    if (dir.empty()) {
      continue;
    }
    const fs::path candidate = fs::path(dir) / program;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

namespace {

std::vector<std::string> child_environment(const ProcessOptions& options) {
  std::map<std::string, std::string> vars;
  if (!options.clean_env) {
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
      const std::string_view entry(*e);
      const std::size_t eq = entry.find('=');
      if (eq != std::string_view::npos) {
        vars[std::string(entry.substr(0, eq))] = std::string(entry.substr(eq + 1));
      }
    }
  } else if (const char* p = std::getenv("PATH"); p != nullptr) {
    vars["PATH"] = p;
  }
  for (const auto& [k, v] : options.env) {
    vars[k] = v;
  }
  std::vector<std::string> out;
  out.reserve(vars.size());
  for (const auto& [k, v] : vars) {
    out.push_back(k + "=" + v);
  }
  return out;
}

// A pipe whose two ends close themselves.
struct Pipe {
  Fd read;
  Fd write;
};

Result<Pipe> make_pipe() {
  int fds[2] = {-1, -1};
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return env_error(std::string("pipe: ") + std::strerror(errno));
  }
  return Pipe{Fd(fds[0]), Fd(fds[1])};
}

// The wait for a child: after a signal (util/interrupt.hpp) the child gets a grace time to end,
// then SIGKILL.
class ChildWait {
public:
  ChildWait(pid_t pid, bool interruptible, std::chrono::milliseconds grace)
      : m_pid(pid), m_interruptible(interruptible), m_grace(grace) {}

  // The poll timeout of the output loop: short once interrupted, and finite before, since the
  // signal may be handled by another thread, which interrupts no poll here.
  int poll_timeout() { return watching() ? 100 : 250; }

  // After a signal: whether the child has ended (reaped here), killing it past the grace time.
  bool ended_after_interrupt() {
    if (!watching()) {
      return false;
    }
    if (!m_ended) {
      int status = 0;
      const pid_t done = ::waitpid(m_pid, &status, WNOHANG);
      if (done == m_pid) {
        ended(status);
      } else {
        kill_past_grace();
      }
    }
    return m_ended;
  }

  // After a signal: whether the child ended and the grace time is over, so that output still
  // coming from what it left running is not read any longer.
  bool past_grace_after_end() {
    return ended_after_interrupt() && std::chrono::steady_clock::now() - m_since >= m_grace;
  }

  // The child's wait status, once it has ended. Polled (with pauses from 1 ms up to 100 ms)
  // rather than blocking, for the same reason as poll_timeout().
  Result<int> wait() {
    long pause_ms = 1;
    while (!m_ended) {
      int status = 0;
      const pid_t done = ::waitpid(m_pid, &status, WNOHANG);
      if (done == m_pid) {
        ended(status);
      } else if (done == 0) {
        if (watching()) {
          kill_past_grace();
        }
        const timespec pause{0, pause_ms * 1'000'000};
        (void)::nanosleep(&pause, nullptr);
        pause_ms = std::min(pause_ms * 2, 100L);
      } else if (errno != EINTR) {
        return env_error(std::string("waitpid: ") + std::strerror(errno));
      }
    }
    return m_status;
  }

private:
  void ended(int status) {
    m_status = status;
    m_ended = true;
  }

  bool watching() {
    if (!m_interruptible || !interrupted()) {
      return false;
    }
    if (!m_noticed) {
      m_noticed = true;
      m_since = std::chrono::steady_clock::now();
    }
    return true;
  }

  void kill_past_grace() {
    if (!m_killed && std::chrono::steady_clock::now() - m_since >= m_grace) {
      (void)::kill(m_pid, SIGKILL);
      m_killed = true;
    }
  }

  pid_t m_pid;
  bool m_interruptible;
  std::chrono::milliseconds m_grace;
  bool m_killed = false;
  bool m_ended = false;
  int m_status = 0;
  bool m_noticed = false;
  std::chrono::steady_clock::time_point m_since{};
};

// The descriptors a child starts with: -1 for stdin is /dev/null, for stdout and stderr this
// process's own.
struct ChildFds {
  int in = -1;
  int out = -1;
  int err = -1;
};

// Forks and executes `argv` with `options` (environment, folder, umask, death signal) and `fds`.
Result<pid_t> spawn(const std::vector<std::string>& argv, const ProcessOptions& options,
                    const ChildFds& fds) {
  const auto exe = find_program(argv[0]);
  if (!exe) {
    return env_error(argv[0] + ": not found in PATH");
  }
  std::vector<std::string> env_strings = child_environment(options);
  std::vector<char*> envp;
  for (auto& s : env_strings) {
    envp.push_back(s.data());
  }
  envp.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> argp;
  for (auto& s : args) {
    argp.push_back(s.data());
  }
  argp.push_back(nullptr);
  const std::string exe_str = exe->string();
  const std::string cwd = options.cwd ? options.cwd->string() : std::string();

  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    return env_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    if (fds.out >= 0) {
      ::dup2(fds.out, STDOUT_FILENO);
    }
    if (fds.err >= 0) {
      ::dup2(fds.err, STDERR_FILENO);
    }
    if (fds.in >= 0) {
      ::dup2(fds.in, STDIN_FILENO);
    } else {
      const int devnull = ::open("/dev/null", O_RDONLY);
      if (devnull >= 0) {
        ::dup2(devnull, STDIN_FILENO);
      }
    }
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) {
      _exit(127);
    }
    if (options.umask) {
      ::umask(static_cast<mode_t>(*options.umask));
    }
    if (options.die_with_parent &&
        (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent)) {
      _exit(127);
    }
    (void)::signal(SIGPIPE, SIG_DFL);
    ::execve(exe_str.c_str(), argp.data(), envp.data());
    _exit(127);
  }
  return pid;
}

// Waits for `pid` (retrying after EINTR); its exit status, or 128 + signal.
int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace

StartedProcess::~StartedProcess() {
  if (m_pid > 0) {
    (void)::kill(m_pid, SIGKILL);
    (void)reap(m_pid);
  }
}

int StartedProcess::wait() {
  const int status = reap(m_pid);
  m_pid = -1;
  return status;
}

Result<StartedProcess> start_process(const std::vector<std::string>& argv,
                                     const ProcessOptions& options) {
  if (argv.empty()) {
    return input_error("start_process: empty command");
  }
  if (!options.when_interrupted) {
    ENVLOCK_TRY(interruption_check());
  }
  ENVLOCK_TRY_ASSIGN(const pid_t pid,
                     spawn(argv, options, {-1, options.stdout_fd, options.stderr_fd}));
  return StartedProcess(pid);
}

Result<ProcessResult> run_process(const std::vector<std::string>& argv,
                                  const ProcessOptions& options) {
  if (argv.empty()) {
    return input_error("run_process: empty command");
  }
  const bool interruptible = !options.when_interrupted;
  if (interruptible) {
    ENVLOCK_TRY(interruption_check());
  }
  const bool cap_out = options.capture == Capture::both && options.stdout_fd < 0;
  const bool cap_err = options.capture != Capture::none && options.stderr_fd < 0;
  Pipe out_pipe;
  Pipe err_pipe;
  Pipe in_pipe;
  if (cap_out) {
    ENVLOCK_TRY_ASSIGN(out_pipe, make_pipe());
  }
  if (cap_err) {
    ENVLOCK_TRY_ASSIGN(err_pipe, make_pipe());
  }
  if (options.stdin_data) {
    ENVLOCK_TRY_ASSIGN(in_pipe, make_pipe());
  }
  ENVLOCK_TRY_ASSIGN(const pid_t pid, spawn(argv, options,
                                            {options.stdin_data ? in_pipe.read.get() : -1,
                                             cap_out ? out_pipe.write.get() : options.stdout_fd,
                                             cap_err ? err_pipe.write.get() : options.stderr_fd}));
  out_pipe.write.reset();
  err_pipe.write.reset();
  in_pipe.read.reset();
  std::optional<ForwardSignals> forward;
  if (interruptible) {
    forward.emplace(pid);
  }
  ChildWait child(pid, interruptible, options.interrupt_grace);

  ProcessResult result;
  std::string_view pending_in = options.stdin_data ? std::string_view(*options.stdin_data) : "";
  if (pending_in.empty()) {
    in_pipe.write.reset();
  }
  // The loop below closes each end when it is done with it (reset), so -1 means closed.
  Fd& in_end = in_pipe.write;
  Fd& out_end = out_pipe.read;
  Fd& err_end = err_pipe.read;
  char buf[1 << 15];
  while ((out_end || err_end || in_end) && !child.past_grace_after_end()) {
    pollfd fds[3];
    int n = 0;
    if (out_end) {
      fds[n++] = {out_end.get(), POLLIN, 0};
    }
    if (err_end) {
      fds[n++] = {err_end.get(), POLLIN, 0};
    }
    if (in_end) {
      fds[n++] = {in_end.get(), POLLOUT, 0};
    }
    const int ready = ::poll(fds, static_cast<nfds_t>(n), child.poll_timeout());
    if (ready < 0 && errno != EINTR) {
      break;
    }
    if (ready <= 0) {
      // Interrupted: once the program has ended, what it left running (holding the pipes open)
      // is not waited for.
      if (child.ended_after_interrupt()) {
        break;
      }
      continue;
    }
    for (int i = 0; i < n; ++i) {
      if (fds[i].revents == 0) {
        continue;
      }
      if (fds[i].fd == in_end.get()) {
        const ssize_t w = ::write(in_end.get(), pending_in.data(), pending_in.size());
        if (w > 0) {
          pending_in.remove_prefix(static_cast<std::size_t>(w));
        }
        if (w < 0 || pending_in.empty()) {
          in_end.reset();
        }
        continue;
      }
      const ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
      if (r <= 0) {
        if (r < 0 && errno == EINTR) {
          continue;
        }
        (fds[i].fd == out_end.get() ? out_end : err_end).reset();
        continue;
      }
      const std::string_view chunk(buf, static_cast<std::size_t>(r));
      (fds[i].fd == out_end.get() ? result.out : result.err).append(chunk);
      if (options.on_output) {
        options.on_output(chunk);
      }
    }
  }
  ENVLOCK_TRY_ASSIGN(const int status, child.wait());
  forward.reset(); // the pid is reaped: it may be another process's soon
  if (interruptible) {
    ENVLOCK_TRY(interruption_check());
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  return result;
}

} // namespace envlock::util
