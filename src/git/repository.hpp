// Opening a local repository (for ref resolution and for reading files at a commit).
#pragma once

#include "git/git2.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string_view>

namespace envlock::git {

// Opens the repository (bare or with a work tree) exactly at `path`, without searching parent
// folders. Fails with the input error "no git repository at SHOWN" (`shown`: the path as written).
Result<RepositoryPtr> open_repository(const std::filesystem::path& path, std::string_view shown);

// Looks up `commit` (full or abbreviated hex, or a ref name) in `repo` and peels it to a commit.
// Fails with an input error "commit 'x' not found in SHOWN".
Result<CommitPtr> lookup_commit(git_repository* repo, std::string_view commit,
                                std::string_view shown);

} // namespace envlock::git
