// File operations relative to a folder descriptor that never follow a symbolic link, so that the
// rootfs being built can only be written beneath its own root (no chdir, no path strings that
// the kernel resolves through links).
#pragma once

#include "util/result.hpp"

#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace envlock::squashfs {

// An owned file descriptor, closed by the destructor.
class UniqueFd {
public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : m_fd(fd) {}
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  UniqueFd(UniqueFd&& other) noexcept : m_fd(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  ~UniqueFd();
  [[nodiscard]] int get() const { return m_fd; }
  int release();

private:
  int m_fd = -1;
};

// Opens the folder `path` (absolute or relative to the working folder). Fails with an
// environment error naming the path.
Result<UniqueFd> open_dir(const std::string& path);

// Opens the folder `name` inside `dir` without following a symbolic link; nothing when `name`
// is missing or is not a folder.
std::optional<UniqueFd> open_subdir(int dir, const std::string& name);

// lstat of `name` inside `dir`; nothing when it does not exist.
std::optional<struct stat> stat_at(int dir, const std::string& name);

// Removes `name` inside `dir`: a file, a link, or a folder with everything in it. Missing is fine.
// Fails with an environment error naming `display` (the rootfs path) and the system's reason.
Status remove_at(int dir, const std::string& name, const std::string& display);

// Creates the folder `name` inside `dir` (mode 0700 for now) after removing a non-folder entry
// of that name; an existing folder is kept. Returns the opened folder.
Result<UniqueFd> ensure_dir_at(int dir, const std::string& name, const std::string& display);

// Sets the permission bits of `name` inside `dir` (never through a link).
Status chmod_at(int dir, const std::string& name, unsigned mode, const std::string& display);

// The names in folder `dir` (without "." and ".."), in the order the file system gives them;
// errors name `shown`.
Result<std::vector<std::string>> names_in(int dir, const std::string& shown);

} // namespace envlock::squashfs
