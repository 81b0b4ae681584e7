// Where `envlock diff` reads a lock from: a file, or a git revision of the repository that holds
// the current folder ("HEAD~1", "main:path/envlock.lock.json"), read with libgit2.
#pragma once

#include "lock/lock.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace envlock::diff {

struct LoadedLock {
  std::string label; // the file as written, or "REV:PATH"
  lock::Lock lock;
};

// Reads `arg`: an existing file, else a git revision REV[:PATH]. A bare REV means
// REV:<path of `working_lock` relative to the repository root>. Fails with an input error that
// names what was given and where it was looked for, e.g. "nosuch.json: no such file, and not a
// revision of the git repository at /src/p"; "HEAD~3: no such commit: HEAD has only 2 commits in
// its first-parent line (the git repository at /src/p)"; "HEAD:x.json: no file x.json in commit
// 0123456789ab (HEAD) of the git repository at /src/p"; or with the lock's own validation error.
Result<LoadedLock> load_lock_arg(std::string_view arg, const std::filesystem::path& working_lock);

// Reads the working lock file itself (label: the path as written).
Result<LoadedLock> load_lock_file(const std::filesystem::path& path);

} // namespace envlock::diff
