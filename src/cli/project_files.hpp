// Where a command finds the project's own files when none is named: as git and uv look for
// theirs, in the current folder, else the nearest folder above it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace envlock::cli {

// When `option` was not given and its default `value` (a file name: envlock.yaml,
// envlock.lock.json) is not in the current folder, looks for it in each folder above, up to the
// top of the git work tree holding the current folder (a folder with .git) or the root. When
// found, `value` becomes its relative path ("../envlock.lock.json") and standard error says so:
// "envlock: using ../envlock.lock.json (found in /home/me/train)". Otherwise `value` is left as
// it is, for the command's own "no such file" error.
void find_in_parents(const CLI::Option* option, std::string& value);

// The folders find_in_parents looks in for a file of the project, as a user reads them: "here
// (/home/me/train/sub) and the folders above it up to /home/me/train (the top of its git work
// tree)", or "... up to /".
std::string searched_folders();

} // namespace envlock::cli
