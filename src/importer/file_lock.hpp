// An exclusive flock(2) on a lock file: the way concurrent gets of one image on one node agree
// that one imports and the others wait. The kernel drops the lock when its holder exits, even by
// SIGKILL, so a killed import never blocks the next one. flock(2) takes no heed of how the file was
// opened (a read-only descriptor can hold an exclusive lock), so a lock root's steps share is
// root's alone (LockOwner::root): mode 0600, and a holder that is not a root process (one that
// opened it while it was readable) is not waited for: the file is replaced, and the wait says so.
#pragma once

#include "util/fd.hpp"
#include "util/result.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>

namespace envlock::importer {

// Whose processes may hold a lock: the caller's (a user's own cache) or root's only.
enum class LockOwner { caller, root };

class FileLock {
public:
  // Takes the lock at `path` (creating the file), waiting up to `timeout`. `on_wait` is called
  // once, with the holder's pid (0 when unknown), when the lock is busy. An environment error
  // (exit 3) when the file cannot be opened or the wait times out. With LockOwner::root, `on_wait`
  // is also told (with the pid negated; -1 when unknown) of a holder that is not root's, whose
  // file is replaced.
  static Result<FileLock> acquire(const std::filesystem::path& path, std::chrono::seconds timeout,
                                  const std::function<void(long holder)>& on_wait = {},
                                  LockOwner owner = LockOwner::caller);

  // Takes the lock only when it is free now; nothing when it is busy or cannot be opened.
  static std::optional<FileLock> try_acquire(const std::filesystem::path& path);

  // How long acquire waited for another holder (zero when the lock was free).
  [[nodiscard]] std::chrono::milliseconds waited() const { return m_waited; }

private:
  explicit FileLock(util::Fd fd) : m_fd(std::move(fd)) {}
  util::Fd m_fd; // closing it releases the lock
  std::chrono::milliseconds m_waited{0};
};

} // namespace envlock::importer
