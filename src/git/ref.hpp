// Resolving a git ref (tag, branch, full or abbreviated commit) to the full 40-hex commit, from a
// local repository or from a remote URL by listing its refs (ls-remote; nothing is cloned).
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace envlock::git {

// Resolves `ref` in the repository at `location` (a URL, or a path relative to `base_dir`).
// Order: the peeled tag refs/tags/<ref>^{}, then refs/tags/<ref>, then refs/heads/<ref>, then a
// commit id. A 40-hex ref is taken as is for a remote (and must exist in a local repository);
// an abbreviated one must match exactly one commit.
// Fails with an input error "ref 'x' not found in LOCATION" or "no git repository at LOCATION"
// (exit 2), or an environment error "cannot list the refs of URL: REASON" (exit 3, URL redacted).
Result<std::string> resolve_commit(std::string_view location, std::string_view ref,
                                   const std::filesystem::path& base_dir);

// True for 40 hex digits (a full SHA-1 commit id).
bool is_full_commit(std::string_view text);

} // namespace envlock::git
