// RootfsBuilder: whiteouts, opaque folders, hard links and the final folder modes.
#include "squashfs/entry_path.hpp"
#include "squashfs/rootfs_builder.hpp"
#include "util/dir.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace envlock::squashfs {

namespace {

constexpr const char* k_opaque = ".wh..wh..opq";
constexpr const char* k_aufs_meta = ".wh..wh.";

std::string child_of(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

} // namespace

Status RootfsBuilder::apply_whiteout(int dir, const std::string& dir_path,
                                     const std::string& name) {
  if (name == k_opaque) {
    return remove_hidden(dir, dir_path);
  }
  if (name.rfind(k_aufs_meta, 0) == 0) {
    warn(child_of(dir_path, name), "AUFS metadata entry skipped");
    return {};
  }
  const std::string target = name.substr(std::strlen(".wh."));
  if (target.empty() || target == "." || target == "..") {
    return refuse(child_of(dir_path, name), "a whiteout of '" + target +
                                                "' (a malformed layer: only a name in the folder "
                                                "can be hidden)");
  }
  const std::string path = child_of(dir_path, target);
  if (m_seen.count(path) != 0) {
    return {}; // a whiteout hides lower layers only
  }
  return remove_at(dir, target, path);
}

// Removes everything under `dir` that the current layer did not write: the opaque folder hides
// the lower layers' contents, nested folders included.
Status RootfsBuilder::remove_hidden(int dir, const std::string& dir_path) {
  ENVLOCK_TRY_ASSIGN(const auto names,
                     util::names_in_folder(dir, dir_path.empty() ? "/" : dir_path));
  for (const auto& name : names) {
    const std::string path = child_of(dir_path, name);
    if (m_seen.count(path) == 0) {
      ENVLOCK_TRY(remove_at(dir, name, path));
      continue;
    }
    if (auto sub = open_subdir(dir, name)) {
      ENVLOCK_TRY(remove_hidden(sub->get(), path));
    }
  }
  return {};
}

Status RootfsBuilder::write_hardlink(int dir, const std::string& name, const std::string& shown,
                                     const std::string& target) {
  const EntryPath to = split_entry_path(target);
  if (to.problem != PathProblem::none || to.parts.empty()) {
    return refuse(shown, "hard link target '" + target + "' leaves the rootfs");
  }
  // Walk to the target's folder without creating or following anything.
  const int dup_fd = ::openat(m_root.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dup_fd < 0) {
    return env_error(std::string("rootfs: cannot open: ") + std::strerror(errno));
  }
  util::Fd from(dup_fd);
  for (std::size_t i = 0; i + 1 < to.parts.size(); ++i) {
    auto sub = open_subdir(from.get(), to.parts[i]);
    if (!sub) {
      return refuse(shown, "hard link target '" + target + "' is not a file in the rootfs");
    }
    from = std::move(*sub);
  }
  const auto st = stat_at(from.get(), to.parts.back());
  if (!st || S_ISDIR(st->st_mode)) {
    return refuse(shown, "hard link target '" + target + "' is not a file in the rootfs");
  }
  const auto existing = stat_at(dir, name);
  if (existing && existing->st_ino == st->st_ino && existing->st_dev == st->st_dev) {
    return {};
  }
  ENVLOCK_TRY(remove_at(dir, name, shown));
  if (::linkat(from.get(), to.parts.back().c_str(), dir, name.c_str(), 0) != 0) {
    return env_error(shown + ": cannot create hard link: " + std::strerror(errno));
  }
  return {};
}

Status RootfsBuilder::finish() {
  // Deepest first, so a folder loses its write permission after its children were set.
  std::vector<std::pair<std::string, unsigned>> dirs(m_dir_modes.begin(), m_dir_modes.end());
  std::sort(dirs.begin(), dirs.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [path, mode] : dirs) {
    const EntryPath p = split_entry_path(path);
    const int dup_fd = ::openat(m_root.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dup_fd < 0) {
      return env_error(std::string("rootfs: cannot open: ") + std::strerror(errno));
    }
    util::Fd dir(dup_fd);
    bool present = true;
    for (std::size_t i = 0; i + 1 < p.parts.size() && present; ++i) {
      auto sub = open_subdir(dir.get(), p.parts[i]);
      present = sub.has_value();
      if (sub) {
        dir = std::move(*sub);
      }
    }
    const auto st = present ? stat_at(dir.get(), p.parts.back()) : std::nullopt;
    if (st && S_ISDIR(st->st_mode)) {
      ENVLOCK_TRY(chmod_at(dir.get(), p.parts.back(), mode, path));
    }
  }
  m_dir_modes.clear();
  return {};
}

} // namespace envlock::squashfs
