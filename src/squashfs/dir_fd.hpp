// File operations relative to a folder descriptor that never follow a symbolic link, so that the
// rootfs being built can only be written beneath its own root (no chdir, no path strings that
// the kernel resolves through links).
#pragma once

#include "util/fd.hpp"
#include "util/result.hpp"

#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace envlock::squashfs {

// Opens the folder `path` (absolute or relative to the working folder). Fails with an
// environment error naming the path.
Result<util::Fd> open_dir(const std::string& path);

// Opens the folder `name` inside `dir` without following a symbolic link; nothing when `name`
// is missing or is not a folder.
std::optional<util::Fd> open_subdir(int dir, const std::string& name);

// lstat of `name` inside `dir`; nothing when it does not exist.
std::optional<struct stat> stat_at(int dir, const std::string& name);

// Removes `name` inside `dir`: a file, a link, or a folder with everything in it. Missing is fine.
// Fails with an environment error naming `display` (the rootfs path) and the system's reason.
Status remove_at(int dir, const std::string& name, const std::string& display);

// Creates the folder `name` inside `dir` (mode 0700 for now) after removing a non-folder entry
// of that name; an existing folder is kept. Returns the opened folder.
Result<util::Fd> ensure_dir_at(int dir, const std::string& name, const std::string& display);

// Sets the permission bits of `name` inside `dir` (never through a link).
Status chmod_at(int dir, const std::string& name, unsigned mode, const std::string& display);

} // namespace envlock::squashfs
