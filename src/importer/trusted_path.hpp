// Whether a path can be trusted by a process that serves another user: the file (or folder) and
// every folder above it are owned by root and writable by no one else, so that only root can
// change the file or rename, remove or plant an entry on the way to it. A folder writable by
// others is allowed only with the sticky bit (like /tmp), where no one but an entry's owner (root,
// checked on the next step down) can rename or remove it. Symbolic links on the way are followed
// and their targets held to the same rule.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace envlock::importer {

// Nothing when `path` is trusted; else why not, naming the first entry that fails:
// "PATH: owned by uid 1000, not root" or "PATH: writable by others (mode 0775)".
std::optional<std::string> untrusted_because(const std::filesystem::path& path);

// The same as a Status: an environment error (exit 3) "WHAT PATH is not safe: WHY; it must be
// owned by root and writable by no one else".
Status require_trusted(const std::filesystem::path& path, const std::string& what);

} // namespace envlock::importer
