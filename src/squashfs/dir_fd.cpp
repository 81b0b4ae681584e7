#include "squashfs/dir_fd.hpp"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace envlock::squashfs {

namespace {

constexpr int k_dir_flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

Error sys_error(const std::string& what, const std::string& display) {
  return env_error(display + ": " + what + ": " + std::strerror(errno));
}

// The names in folder `dir` (without . and ..).
Result<std::vector<std::string>> list_names(int dir, const std::string& display) {
  const int dup_fd = ::openat(dir, ".", k_dir_flags);
  if (dup_fd < 0) {
    return sys_error("cannot open", display);
  }
  DIR* stream = ::fdopendir(dup_fd);
  if (stream == nullptr) {
    ::close(dup_fd);
    return sys_error("cannot list", display);
  }
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* e = ::readdir(stream)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") {
      names.push_back(name);
    }
  }
  const int read_errno = errno;
  ::closedir(stream);
  if (read_errno != 0) {
    errno = read_errno;
    return sys_error("cannot list", display);
  }
  return names;
}

} // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
    m_fd = other.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
}

int UniqueFd::release() {
  const int fd = m_fd;
  m_fd = -1;
  return fd;
}

Result<UniqueFd> open_dir(const std::string& path) {
  const int fd = ::open(path.c_str(), k_dir_flags);
  if (fd < 0) {
    return sys_error("cannot open folder", path);
  }
  return UniqueFd(fd);
}

std::optional<UniqueFd> open_subdir(int dir, const std::string& name) {
  const int fd = ::openat(dir, name.c_str(), k_dir_flags);
  if (fd < 0) {
    return std::nullopt;
  }
  return UniqueFd(fd);
}

std::optional<struct stat> stat_at(int dir, const std::string& name) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return std::nullopt;
  }
  return st;
}

Status remove_at(int dir, const std::string& name, const std::string& display) {
  const auto st = stat_at(dir, name);
  if (!st) {
    return {};
  }
  if (S_ISDIR(st->st_mode)) {
    // Make sure we may list and empty it, whatever its mode.
    ENVLOCK_TRY(chmod_at(dir, name, 0700, display));
    auto sub = open_subdir(dir, name);
    if (!sub) {
      return sys_error("cannot open", display);
    }
    ENVLOCK_TRY_ASSIGN(const auto names, list_names(sub->get(), display));
    for (const auto& child : names) {
      ENVLOCK_TRY(remove_at(sub->get(), child, display + "/" + child));
    }
    if (::unlinkat(dir, name.c_str(), AT_REMOVEDIR) != 0) {
      return sys_error("cannot remove", display);
    }
    return {};
  }
  if (::unlinkat(dir, name.c_str(), 0) != 0) {
    return sys_error("cannot remove", display);
  }
  return {};
}

Result<UniqueFd> ensure_dir_at(int dir, const std::string& name, const std::string& display) {
  if (auto sub = open_subdir(dir, name)) {
    return std::move(*sub);
  }
  ENVLOCK_TRY(remove_at(dir, name, display));
  if (::mkdirat(dir, name.c_str(), 0700) != 0) {
    return sys_error("cannot create folder", display);
  }
  auto sub = open_subdir(dir, name);
  if (!sub) {
    return sys_error("cannot open", display);
  }
  return std::move(*sub);
}

Status chmod_at(int dir, const std::string& name, unsigned mode, const std::string& display) {
  const auto st = stat_at(dir, name);
  if (!st || S_ISLNK(st->st_mode)) {
    return env_error(display + ": cannot change mode: not a file or folder");
  }
  if (::fchmodat(dir, name.c_str(), mode, 0) != 0) {
    return sys_error("cannot change mode", display);
  }
  return {};
}

Result<std::vector<std::string>> names_in(int dir, const std::string& shown) {
  const int fd = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return env_error(shown + ": cannot open: " + std::strerror(errno));
  }
  DIR* stream = ::fdopendir(fd);
  if (stream == nullptr) {
    ::close(fd);
    return env_error(shown + ": cannot list: " + std::strerror(errno));
  }
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(stream)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") {
      names.push_back(name);
    }
  }
  ::closedir(stream);
  return names;
}

} // namespace envlock::squashfs
