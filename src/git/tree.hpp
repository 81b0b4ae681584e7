// Reading a repository's files at a commit without a checkout: one file's bytes, or every entry of
// the commit's tree (for exporting a build context).
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::git {

struct TreeEntry {
  std::string path;   // slash-separated, relative to the repository root
  std::uint32_t mode; // git file mode: 0100644, 0100755, 0120000 (link), 0160000 (submodule)
  std::string oid;    // 40-hex blob id (the commit id for a submodule)
  bool operator==(const TreeEntry&) const = default;
};

// The bytes of `path` at `commit` in the local repository at `repo`. Fails with an input error
// "PATH not found at commit C" or "commit 'C' not found in REPO", or when `path` is not a file.
Result<std::string> read_blob(const std::filesystem::path& repo, std::string_view commit,
                              std::string_view path);

// Every file, link and submodule of the tree at `commit`, sorted by path (folders are implied).
// Fails like read_blob.
Result<std::vector<TreeEntry>> list_tree(const std::filesystem::path& repo,
                                         std::string_view commit);

} // namespace envlock::git
