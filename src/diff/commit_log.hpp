// The commits between two pinned revisions of a source (the Megatron-LM commit of two locks),
// read from a local clone with libgit2's revision walk.
#pragma once

#include "diff/lock_diff.hpp"

#include <filesystem>
#include <string>

namespace envlock::diff {

// The log from `old_commit` to `new_commit` in the repository at `repo`, newest first, at most
// `limit` subjects (the count is always complete). Never fails: when the repository or a commit
// cannot be read, `unavailable` says why.
CommitLog read_commit_log(const std::string& source, const std::filesystem::path& repo,
                          const std::string& old_commit, const std::string& new_commit,
                          std::size_t limit = 50);

// Adds a CommitLog to `diff` for every source whose commit changed. `megatron_repo` (when not
// empty) is the clone to read for the "megatron" source; otherwise a source whose `git` is a
// local folder is read there, and any other gets `unavailable` set.
void add_commit_logs(LockDiff& diff, const lock::Lock& old_lock, const lock::Lock& new_lock,
                     const std::filesystem::path& megatron_repo);

} // namespace envlock::diff
