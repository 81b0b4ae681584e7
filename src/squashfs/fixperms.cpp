#include "squashfs/fixperms.hpp"

#include "squashfs/dir_fd.hpp"
#include "util/dir.hpp"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace envlock::squashfs {

namespace {

constexpr int k_max_writable_depth = 14;

// The mode `chmod u+rX` gives (and `u+w` for shallow folders).
unsigned fixed_mode(unsigned mode, bool is_dir, int depth) {
  unsigned out = mode | S_IRUSR;
  if (is_dir || (mode & (S_IXUSR | S_IXGRP | S_IXOTH)) != 0) {
    out |= S_IXUSR;
  }
  if (is_dir && depth <= k_max_writable_depth) {
    out |= S_IWUSR;
  }
  return out;
}

Status fix_dir(int dir, const std::string& shown, int depth) {
  ENVLOCK_TRY_ASSIGN(const std::vector<std::string> names, util::names_in_folder(dir, shown));
  for (const auto& name : names) {
    const std::string path = shown + "/" + name;
    const auto st = stat_at(dir, name);
    if (!st || !(S_ISDIR(st->st_mode) || S_ISREG(st->st_mode))) {
      continue;
    }
    const bool is_dir = S_ISDIR(st->st_mode);
    const unsigned mode = st->st_mode & 07777U;
    const unsigned wanted = fixed_mode(mode, is_dir, depth);
    if (wanted != mode) {
      ENVLOCK_TRY(chmod_at(dir, name, wanted, path));
    }
    if (is_dir) {
      auto sub = open_subdir(dir, name);
      if (!sub) {
        return env_error(path + ": cannot open: " + std::strerror(errno));
      }
      ENVLOCK_TRY(fix_dir(sub->get(), path, depth + 1));
    }
  }
  return {};
}

} // namespace

Status fix_permissions(int root) {
  return fix_dir(root, "", 1);
}

} // namespace envlock::squashfs
