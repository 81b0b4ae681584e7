// An exclusive flock(2) on a lock file: the way concurrent gets of one image on one node agree
// that one imports and the others wait. The kernel drops the lock when its holder exits, even by
// SIGKILL, so a killed import never blocks the next one.
#pragma once

#include "util/fd.hpp"
#include "util/result.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>

namespace envlock::importer {

class FileLock {
public:
  // Takes the lock at `path` (creating the file), waiting up to `timeout`. `on_wait` is called
  // once, with the holder's pid (0 when unknown), when the lock is busy. An environment error
  // (exit 3) when the file cannot be opened or the wait times out.
  static Result<FileLock> acquire(const std::filesystem::path& path, std::chrono::seconds timeout,
                                  const std::function<void(long holder)>& on_wait = {});

  // Takes the lock only when it is free now; nothing when it is busy or cannot be opened.
  static std::optional<FileLock> try_acquire(const std::filesystem::path& path);

private:
  explicit FileLock(util::Fd fd) : m_fd(std::move(fd)) {}
  util::Fd m_fd; // closing it releases the lock
};

} // namespace envlock::importer
