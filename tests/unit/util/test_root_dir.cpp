// util::RootDir: paths resolved inside a root as a chroot would, by both resolvers. The tree lies
// at TMP/img; TMP/outside is where an escaping path would land.
#include "../testutil.hpp"
#include "util/root_dir.hpp"
#include "util/strings.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace envlock;
namespace fs = std::filesystem;

namespace root_dir_test {

// The resolvers this machine can run: the user-space walk always, the kernel's where it has it.
std::vector<util::RootResolver> resolvers() {
  std::vector<util::RootResolver> out = {util::RootResolver::user_space};
  if (util::default_root_resolver() == util::RootResolver::kernel) {
    out.push_back(util::RootResolver::kernel);
  }
  return out;
}

const char* name_of(util::RootResolver resolver) {
  return resolver == util::RootResolver::kernel ? "kernel" : "user-space";
}

struct RootTree {
  util::TempDir dir = test::temp_dir();
  fs::path img = dir.path() / "img";
  RootTree() {
    test::write_text(dir.path() / "outside" / "secret", "host");
    test::write_text(img / "usr/local/cuda-13.3/version.json", "image");
    test::write_text(img / "etc/hostname", "image-host");
    fs::create_directories(img / "etc/alternatives");
    fs::create_symlink("/usr/local/cuda-13.3", img / "etc/alternatives/cuda");
    fs::create_symlink("/etc/alternatives/cuda", img / "usr/local/cuda");
    fs::create_symlink("../../../outside/secret", img / "usr/local/up");
    fs::create_symlink(dir.path() / "outside/secret", img / "usr/local/host");
    fs::create_symlink("loop2", img / "loop1");
    fs::create_symlink("loop1", img / "loop2");
    fs::create_symlink("/", img / "usr/root");
  }
};

} // namespace root_dir_test

using namespace root_dir_test;

TEST_CASE("RootDir: links and '..' resolve inside the root") {
  const RootTree tree;
  for (const auto resolver : resolvers()) {
    CAPTURE(name_of(resolver));
    const auto root = util::RootDir::open(tree.img, resolver);
    REQUIRE(root);
    CHECK(*root->real_path("/usr/local/cuda/version.json") == "/usr/local/cuda-13.3/version.json");
    CHECK(*root->read("/usr/local/cuda/version.json", 100) == "image");
    CHECK(*root->real_path("usr/root/usr/root/..//etc/./hostname") == "/etc/hostname");
    CHECK(*root->read("/../../../../etc/hostname", 100) == "image-host");
    CHECK(*root->real_path("/usr/local/../../..") == "/");
    // A link out of the tree names the tree's path of that name, which is not there.
    const auto up = root->read("/usr/local/up", 100);
    REQUIRE_FALSE(up);
    CHECK(up.error().message == "/usr/local/up: No such file or directory");
    const auto host = root->read("usr/local/host", 100);
    REQUIRE_FALSE(host);
    CHECK(host.error().message == "usr/local/host: No such file or directory");
    test::write_text(tree.img / "outside/secret", "image copy");
    CHECK(*root->read("/usr/local/up", 100) == "image copy");
    fs::remove_all(tree.img / "outside");
  }
}

TEST_CASE("RootDir: loops, files as folders and limits fail with the path") {
  const RootTree tree;
  for (const auto resolver : resolvers()) {
    CAPTURE(name_of(resolver));
    const auto root = util::RootDir::open(tree.img, resolver);
    REQUIRE(root);
    const auto loop = root->stat("/loop1");
    REQUIRE_FALSE(loop);
    CHECK(loop.error().message == "/loop1: Too many levels of symbolic links");
    const auto not_dir = root->stat("/etc/hostname/x");
    REQUIRE_FALSE(not_dir);
    CHECK(not_dir.error().message == "/etc/hostname/x: Not a directory");
    const auto large = root->read("/etc/hostname", 4);
    REQUIRE_FALSE(large);
    CHECK(large.error().message == "/etc/hostname: larger than 4 bytes");
    const auto folder = root->open_regular("/usr");
    REQUIRE_FALSE(folder);
    CHECK(folder.error().message == "/usr: is a folder, not a regular file");
  }
}

TEST_CASE("RootDir: a FIFO is named, never opened") {
  const RootTree tree;
  REQUIRE(::mkfifo((tree.img / "etc/fifo").c_str(), 0600) == 0);
  fs::create_symlink("/etc/fifo", tree.img / "etc/to-fifo");
  for (const auto resolver : resolvers()) {
    CAPTURE(name_of(resolver));
    const auto root = util::RootDir::open(tree.img, resolver);
    REQUIRE(root);
    const auto fifo = root->read("/etc/to-fifo", 100);
    REQUIRE_FALSE(fifo);
    CHECK(fifo.error().message == "/etc/to-fifo: is a FIFO, not a regular file");
  }
  const auto host = util::read_regular_file(tree.img / "etc/fifo", 100);
  REQUIRE_FALSE(host);
  CHECK(host.error().message ==
        (tree.img / "etc/fifo").string() + ": is a FIFO, not a regular file");
}

TEST_CASE("RootDir: a listing gives each entry's type after its links") {
  const RootTree tree;
  for (const auto resolver : resolvers()) {
    CAPTURE(name_of(resolver));
    const auto root = util::RootDir::open(tree.img, resolver);
    REQUIRE(root);
    const auto entries = root->list("/usr/local");
    REQUIRE(entries);
    std::vector<std::string> names;
    for (const auto& entry : *entries) {
      const std::string type = entry.mode == 0 ? "broken" : util::file_type_name(entry.mode);
      names.push_back(entry.name + " " + type);
    }
    CHECK(names == std::vector<std::string>{"cuda a folder", "cuda-13.3 a folder", "host broken",
                                            "up broken"});
  }
}

TEST_CASE("RootDir: a root that is no folder") {
  const RootTree tree;
  const auto root = util::RootDir::open(tree.img / "etc/hostname");
  REQUIRE_FALSE(root);
  CHECK(root.error().message == (tree.img / "etc/hostname").string() + ": not a folder");
}

TEST_CASE("escape_invalid_utf8") {
  CHECK(util::escape_invalid_utf8("plain é") == "plain é");
  CHECK(util::escape_invalid_utf8("a\xff"
                                  "b\xc3") == "a\\xffb\\xc3");
}
