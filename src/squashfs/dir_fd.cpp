#include "squashfs/dir_fd.hpp"
#include "util/dir.hpp"

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

} // namespace

Result<util::Fd> open_dir(const std::string& path) {
  const int fd = ::open(path.c_str(), k_dir_flags);
  if (fd < 0) {
    return sys_error("cannot open folder", path);
  }
  return util::Fd(fd);
}

std::optional<util::Fd> open_subdir(int dir, const std::string& name) {
  const int fd = ::openat(dir, name.c_str(), k_dir_flags);
  if (fd < 0) {
    return std::nullopt;
  }
  return util::Fd(fd);
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
    ENVLOCK_TRY_ASSIGN(const auto names, util::names_in_folder(sub->get(), display));
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

Result<util::Fd> ensure_dir_at(int dir, const std::string& name, const std::string& display) {
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

} // namespace envlock::squashfs
