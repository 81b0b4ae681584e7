// The one path-trust walk of every decision root makes for someone else (docs/manual/trust.md):
// a path is trusted when every entry from / down to it is owned by root, writable by no one else
// (group and others; a sticky folder like /tmp is no exception: anyone may create a name in it
// first) and not a symbolic link. The walk opens one component at a time with
// openat(O_PATH | O_NOFOLLOW) from the folder it has just checked, and checks each on its open
// descriptor, so what is checked is what is used: the descriptor it returns, or the same path
// again, which only root can change.
#pragma once

#include "util/fd.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <sys/stat.h>

namespace envlock::importer {

// What the walk opens the last entry as.
enum class EntryKind {
  any,    // O_PATH: only checked, never read (works without read permission)
  file,   // a regular file, O_RDONLY | O_NONBLOCK (a FIFO never blocks the walk)
  folder, // a folder, O_RDONLY | O_DIRECTORY
};

struct TrustedEntry {
  util::Fd fd;
  struct stat st {};
};

// Walks `path` (made absolute; a ".." in it is refused) and opens its last entry as `kind`. An
// environment error naming the first entry that fails: "PATH: owned by uid 1000, not root",
// "PATH: writable by others (mode 1777)", "PATH: a symbolic link", "PATH: not a regular file",
// "PATH: not a folder", or "PATH: REASON" when it cannot be opened.
Result<TrustedEntry> open_trusted(const std::filesystem::path& path, EntryKind kind);

// Nothing when `path` is trusted; else why not, as open_trusted says it.
std::optional<std::string> untrusted_because(const std::filesystem::path& path);

// The same as a Status: an environment error (exit 3) "WHAT PATH is not safe: WHY; it must be
// owned by root and writable by no one else, with every folder above it".
Status require_trusted(const std::filesystem::path& path, const std::string& what);

// Why the open file `st` describes is not root's own regular file writable by no one else (and,
// when `read_only`, not even by root's mode bits); nothing when it is.
std::optional<std::string> owned_file_problem(const struct stat& st,
                                              const std::filesystem::path& path, bool read_only);

// "0644": the permission bits of `mode`, as messages show them.
std::string mode_text(mode_t mode);

} // namespace envlock::importer
