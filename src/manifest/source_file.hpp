// Reading a file whose lines error messages quote (the manifest, the importer's configuration).
// Such a file is read only when it is a regular file: a FIFO or a device would hang the read or
// never end, and /proc files hold the process's secrets. The manifest must also resolve inside
// its project, so that a pull request replacing envlock.yaml by a symbolic link to
// /proc/self/environ or to a Docker config.json makes the check fail without quoting them.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <string>

namespace envlock::manifest {

enum class LinkRule {
  inside_project, // links are followed only to files inside the project
  anywhere,       // links are followed wherever they lead (files an administrator places)
};

// The folder a file belongs to for LinkRule::inside_project: the git work tree holding it (the
// nearest parent folder with a `.git`), else its own folder; absolute, as given (not resolved).
std::filesystem::path project_folder(const std::filesystem::path& file);

// The text of `path`, at most `limit` bytes. Input errors (exit 2) name the path: "PATH: a
// symbolic link leading outside the project (to TARGET); a manifest must be a file inside
// PROJECT", "PATH: is a FIFO, not a regular file" (likewise a character or block device, a
// socket, a directory), "PATH: larger than LIMIT bytes", or the system's reason.
Result<std::string> read_source_file(const std::filesystem::path& path, std::uintmax_t limit,
                                     LinkRule rule);

} // namespace envlock::manifest
