#include "../testutil.hpp"
#include "squashfs/entry_path.hpp"
#include "squashfs/tree_digest.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <sys/stat.h>

using namespace envlock;
using namespace envlock::squashfs;
namespace fs = std::filesystem;

TEST_SUITE("squashfs") {

  TEST_CASE("tree_record is length-prefixed") {
    CHECK(tree_record("a b", TreeNode{NodeType::regular, 04755, "abc"}) == "f 4755 3:a b 3:abc\n");
    CHECK(tree_record("l", TreeNode{NodeType::symlink, 0777, "../x"}) == "l 0777 1:l 4:../x\n");
    CHECK(tree_record(".", TreeNode{NodeType::directory, 0755, ""}) == "d 0755 1:. 0:\n");
  }

  TEST_CASE("tree digest of a folder ignores times but not modes") {
    util::TempDir tmp = test::temp_dir("envlock-test");
    const fs::path root = tmp.path() / "r";
    test::write_text(root / "d/f", "content");
    fs::create_symlink("d/f", root / "l");
    ::chmod(root.c_str(), 0755);
    const auto first = read_tree_dir(root);
    REQUIRE(first);
    CHECK(first->at("d/f").value ==
          "ed7002b439e9ac845f22357d822bac1444730fbdb6016d3ec9432297b9ec9f73");
    CHECK(first->at("l").value == "d/f");
    CHECK(first->count(".") == 1);
    fs::last_write_time(root / "d/f", fs::file_time_type::clock::now() - std::chrono::hours(5));
    const auto touched = read_tree_dir(root);
    REQUIRE(touched);
    CHECK(tree_digest(*first) == tree_digest(*touched));
    ::chmod((root / "d/f").c_str(), 0600);
    const auto chmodded = read_tree_dir(root);
    REQUIRE(chmodded);
    CHECK(tree_digest(*first) != tree_digest(*chmodded));
  }

  TEST_CASE("split_entry_path normalises names and flags problems") {
    const auto p = split_entry_path("./a//b/./c/");
    CHECK(p.joined() == "a/b/c");
    CHECK(p.parent() == "a/b");
    CHECK(!p.absolute);
    CHECK(split_entry_path("/x").absolute);
    CHECK(split_entry_path("a/../b").problem == PathProblem::dot_dot);
    CHECK(split_entry_path(std::string(300, 'n')).problem == PathProblem::too_long);
    CHECK(split_entry_path("./").parts.empty());
  }
}
