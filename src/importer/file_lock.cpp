#include "importer/file_lock.hpp"

#include "util/interrupt.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <vector>

namespace envlock::importer {

namespace {

constexpr auto k_poll = std::chrono::milliseconds(20);

Result<util::Fd> open_lock_file(const std::filesystem::path& path, LockOwner owner) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return env_error(path.string() + ": cannot open the lock file: " + std::strerror(errno));
  }
  util::Fd out(fd);
  if (owner == LockOwner::root) {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != 0) {
      return env_error(path.string() + ": the lock file is not root's own regular file");
    }
    // Readable by others, anyone could open it and hold it.
    if ((st.st_mode & 077) != 0 && ::fchmod(fd, 0600) != 0) {
      return env_error(path.string() + ": chmod 0600: " + std::strerror(errno));
    }
  }
  return out;
}

// The pids holding a flock on the file `st` describes, as /proc/locks lists them.
std::vector<long> flock_holders(const struct stat& st) {
  std::ifstream locks("/proc/locks");
  std::vector<long> out;
  char wanted[64];
  (void)std::snprintf(wanted, sizeof wanted, "%02x:%02x:%llu", major(st.st_dev), minor(st.st_dev),
                      static_cast<unsigned long long>(st.st_ino));
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream words(line);
    std::string number, kind, advisory, access, device;
    long pid = 0;
    words >> number >> kind;
    if (kind == "->") {
      continue; // a waiter, not a holder
    }
    words >> advisory >> access >> pid >> device;
    if (kind == "FLOCK" && device == wanted) {
      out.push_back(pid);
    }
  }
  return out;
}

// The first holder of the lock `fd` holds that is not a root process (its pid; -1 when the pid
// is gone or unknown), or 0 when every holder is root's.
long foreign_holder(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return 0;
  }
  for (const long pid : flock_holders(st)) {
    struct stat proc {};
    const std::string dir = "/proc/" + std::to_string(pid);
    if (pid <= 0 || ::stat(dir.c_str(), &proc) != 0) {
      return -1;
    }
    if (proc.st_uid != 0) {
      return pid;
    }
  }
  return 0;
}

bool same_file(int fd, const std::filesystem::path& path) {
  struct stat open_st {};
  struct stat path_st {};
  return ::fstat(fd, &open_st) == 0 && ::lstat(path.c_str(), &path_st) == 0 &&
         open_st.st_dev == path_st.st_dev && open_st.st_ino == path_st.st_ino;
}

// Puts a fresh lock file (root's, 0600) where `fd`'s file is, unless another root step did first.
Status replace_lock_file(int fd, const std::filesystem::path& path) {
  if (!same_file(fd, path)) {
    return {};
  }
  const std::filesystem::path fresh = path.string() + "." + std::to_string(::getpid()) + ".new";
  const int raw = ::open(fresh.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (raw < 0) {
    return env_error(fresh.string() + ": cannot create: " + std::strerror(errno));
  }
  ::close(raw);
  if (std::rename(fresh.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    (void)::unlink(fresh.c_str());
    return env_error(path.string() + ": cannot replace: " + why);
  }
  return {};
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
                                   const std::function<void(long holder)>& on_wait,
                                   LockOwner owner) {
  ENVLOCK_TRY_ASSIGN(util::Fd fd, open_lock_file(path, owner));
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + timeout;
  bool told = false;
  while (true) {
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) == 0) {
      // Root's lock files are replaced (above): the lock counts only on the file the path names.
      if (owner == LockOwner::caller || same_file(fd.get(), path)) {
        break;
      }
      ENVLOCK_TRY_ASSIGN(fd, open_lock_file(path, owner));
      continue;
    }
    if (errno != EWOULDBLOCK && errno != EINTR) {
      return env_error(path.string() + ": flock: " + std::strerror(errno));
    }
    if (owner == LockOwner::root) {
      if (const long foreign = foreign_holder(fd.get()); foreign != 0) {
        ENVLOCK_TRY(replace_lock_file(fd.get(), path));
        if (on_wait) {
          on_wait(foreign > 0 ? -foreign : -1);
        }
        ENVLOCK_TRY_ASSIGN(fd, open_lock_file(path, owner));
        continue;
      }
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
  FileLock lock(std::move(fd));
  lock.m_waited = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  return lock;
}

std::optional<FileLock> FileLock::try_acquire(const std::filesystem::path& path) {
  auto fd = open_lock_file(path, LockOwner::caller);
  if (!fd || ::flock(fd->get(), LOCK_EX | LOCK_NB) != 0) {
    return std::nullopt;
  }
  write_pid(fd->get());
  return FileLock(std::move(*fd));
}

} // namespace envlock::importer
