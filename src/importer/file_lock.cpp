#include "importer/file_lock.hpp"

#include "util/interrupt.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace envlock::importer {

namespace {

constexpr auto k_poll = std::chrono::milliseconds(20);

Result<util::Fd> open_lock_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return env_error(path.string() + ": cannot open the lock file: " + std::strerror(errno));
  }
  return util::Fd(fd);
}

// The pid the holder wrote into the file, or 0.
long holder_of(int fd) {
  char text[32] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  long pid = 0;
  if (n > 0) {
    std::from_chars(text, text + n, pid);
  }
  return pid;
}

// Records our pid in the file, for the messages of those who wait.
void write_pid(int fd) {
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) == 0) {
    (void)::pwrite(fd, pid.data(), pid.size(), 0);
  }
}

} // namespace

Result<FileLock> FileLock::acquire(const std::filesystem::path& path, std::chrono::seconds timeout,
                                   const std::function<void(long holder)>& on_wait) {
  ENVLOCK_TRY_ASSIGN(util::Fd fd, open_lock_file(path));
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  bool told = false;
  while (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return env_error(path.string() + ": flock: " + std::strerror(errno));
    }
    if (!told && on_wait) {
      on_wait(holder_of(fd.get()));
      told = true;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      const long holder = holder_of(fd.get());
      return env_error(path.string() + ": still locked after " + std::to_string(timeout.count()) +
                       " s" + (holder > 0 ? " by pid " + std::to_string(holder) : "") +
                       " (lock_timeout_seconds); giving up");
    }
    ENVLOCK_TRY(util::interruptible_sleep(k_poll));
  }
  write_pid(fd.get());
  return FileLock(std::move(fd));
}

std::optional<FileLock> FileLock::try_acquire(const std::filesystem::path& path) {
  auto fd = open_lock_file(path);
  if (!fd || ::flock(fd->get(), LOCK_EX | LOCK_NB) != 0) {
    return std::nullopt;
  }
  write_pid(fd->get());
  return FileLock(std::move(*fd));
}

} // namespace envlock::importer
