// A real git repository for the git tests, made with the git program: three commits on main, a
// lightweight tag v1 (first commit), an annotated tag v2 (second commit), a branch `release`
// (second commit), a tag and a branch both named `same` (tag: first commit, branch: third).
#pragma once

#include "../testutil.hpp"
#include "util/fs.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace envlock::test {

// Runs `git -C repo ARGS...` with fixed author, committer and dates and no user or system
// configuration; returns its trimmed output. Throws when git fails (a broken test fixture).
std::string run_git(const std::filesystem::path& repo, std::vector<std::string> args);

struct GitFixture {
  util::TempDir dir = test::temp_dir("envlock-git");
  std::filesystem::path repo; // dir/repo
  std::string c1, c2, c3;     // full commit ids, oldest first
  std::string v2_tag_object;  // the annotated tag's own object id

  GitFixture();
};

} // namespace envlock::test
