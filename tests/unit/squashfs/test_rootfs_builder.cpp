#include "../testutil.hpp"
#include "squashfs/enroot_files.hpp"
#include "squashfs/fixperms.hpp"
#include "squashfs/rootfs_builder.hpp"
#include "squashfs/tree_digest.hpp"
#include "util/fs.hpp"
#include "util/sha256.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <sys/stat.h>
#include <vector>

using namespace envlock;
using namespace envlock::squashfs;
namespace fs = std::filesystem;

namespace {

std::string digest_of(const std::string& name) {
  return "sha256:" + *util::sha256_file_hex(test::data_path("squashfs/" + name));
}

Status apply(RootfsBuilder& builder, const std::string& name) {
  return builder.apply_layer(test::data_path("squashfs/" + name), digest_of(name), nullptr);
}

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::lstat(p.c_str(), &st) == 0);
  return st.st_mode & 07777U;
}

struct Fixture {
  util::TempDir tmp = test::temp_dir("envlock-test");
  fs::path root = tmp.path() / "rootfs";
  Fixture() { fs::create_directory(root); }
};

} // namespace

TEST_SUITE("squashfs") {

  TEST_CASE("layers apply with whiteouts, opaque folders, links and dev/* excluded") {
    Fixture f;
    auto builder = RootfsBuilder::open(f.root);
    REQUIRE(builder);
    REQUIRE(apply(*builder, "base.tar"));
    REQUIRE(apply(*builder, "top.tar"));
    REQUIRE(builder->finish());
    CHECK(!fs::exists(f.root / "a/one")); // hidden by the opaque marker
    CHECK(!fs::exists(f.root / "a/sub")); // nested too
    CHECK(fs::exists(f.root / "a/new"));  // the opaque layer's own entry stays
    CHECK(!fs::exists(f.root / "a/.wh..wh..opq"));
    CHECK(!fs::exists(f.root / "gone")); // whiteout
    CHECK(!fs::exists(f.root / ".wh.gone"));
    CHECK(fs::exists(f.root / "dev"));       // dev itself is kept,
    CHECK(!fs::exists(f.root / "dev/null")); // its contents are not
    CHECK(fs::is_symlink(f.root / "link"));
    CHECK(fs::read_symlink(f.root / "link") == "a/one");
    CHECK(fs::hard_link_count(f.root / "hard") == 1); // its target was hidden later
    CHECK(mode_of(f.root / "a") == 0700);
    CHECK(mode_of(f.root / "b") == 0555);
    CHECK(mode_of(f.root / "b/three") == 04755);
    CHECK(mode_of(f.root / "c") == 0755); // implicit parents are 0755, as tar makes them
    CHECK(builder->warnings().empty());
    REQUIRE(fix_permissions(builder->root_fd()));
    CHECK(mode_of(f.root / "b") == 0755);
  }

  TEST_CASE("unsafe layers are refused with the layer digest and the entry") {
    Fixture f;
    auto builder = RootfsBuilder::open(f.root);
    REQUIRE(builder);
    auto traversal = apply(*builder, "traversal.tar");
    REQUIRE(!traversal);
    CHECK(traversal.error().message ==
          "layer " + digest_of("traversal.tar") +
              ": 'x/../../escape': name contains '..'; refusing to write outside the rootfs");
    CHECK(!fs::exists(f.tmp.path() / "escape"));

    auto symlink = apply(*builder, "symlink_escape.tar");
    REQUIRE(!symlink);
    CHECK(symlink.error().message == "layer " + digest_of("symlink_escape.tar") +
                                         ": 'evil/etc/pwned': goes through the symbolic link "
                                         "'evil' of the same layer");
    CHECK(!fs::exists("/etc/pwned"));

    auto hardlink = apply(*builder, "hardlink_escape.tar");
    REQUIRE(!hardlink);
    CHECK(hardlink.error().message ==
          "layer " + digest_of("hardlink_escape.tar") +
              ": 'hl': hard link target '../outside' leaves the rootfs");
  }

  TEST_CASE("device nodes are skipped with a warning") {
    Fixture f;
    auto builder = RootfsBuilder::open(f.root);
    REQUIRE(builder);
    REQUIRE(apply(*builder, "device.tar"));
    CHECK(!fs::exists(fs::symlink_status(f.root / "null")));
    REQUIRE(builder->warnings().size() == 1);
    CHECK(builder->warnings()[0] ==
          "layer " + digest_of("device.tar") + ": 'null': device node, FIFO or socket skipped");
  }

  TEST_CASE("a layer whose bytes do not match its digest is refused") {
    Fixture f;
    auto builder = RootfsBuilder::open(f.root);
    REQUIRE(builder);
    const std::string wrong = "sha256:" + std::string(64, '0');
    auto status = builder->apply_layer(test::data_path("squashfs/base.tar"), wrong, nullptr);
    REQUIRE(!status);
    CHECK(status.error().message ==
          "layer " + wrong + ": digest mismatch (got " + digest_of("base.tar") + ")");
  }

  TEST_CASE("Enroot's files replace the image's and the tree digest sees them") {
    Fixture f;
    auto builder = RootfsBuilder::open(f.root);
    REQUIRE(builder);
    REQUIRE(apply(*builder, "base.tar"));
    REQUIRE(builder->finish());
    const auto before = read_tree_dir(f.root);
    REQUIRE(before);
    ImageConfig config;
    config.working_dir = "/b/w";
    REQUIRE(write_enroot_files(builder->root_fd(), config, lock::EnrootLocale::utf8));
    CHECK(mode_of(f.root / "etc") == 0755);
    CHECK(mode_of(f.root / "etc/rc") == 0644);
    CHECK(mode_of(f.root / "b") == 0755); // the top layer's folder wins
    CHECK(mode_of(f.root / "b/w") == 0755);
    const auto after = read_tree_dir(f.root);
    REQUIRE(after);
    CHECK(tree_digest(*before) != tree_digest(*after));
    ImageConfig escaping;
    escaping.working_dir = "/../x";
    CHECK(write_enroot_files(builder->root_fd(), escaping, lock::EnrootLocale::utf8)
              .error()
              .message == "image config: WorkingDir '/../x' leaves the rootfs");
  }

  TEST_CASE("a relative WorkingDir creates no folder, as Enroot's mkdir beside the rootfs") {
    Fixture f;
    auto builder = RootfsBuilder::open(f.root);
    REQUIRE(builder);
    ImageConfig config;
    config.working_dir = "rel/dir";
    REQUIRE(write_enroot_files(builder->root_fd(), config, lock::EnrootLocale::utf8));
    CHECK(!fs::exists(f.root / "rel"));
    CHECK(!fs::exists(f.tmp.path() / "rootfsrel")); // nothing beside the rootfs either
    CHECK(workdir_warning(config) ==
          "image config: WorkingDir 'rel/dir' is relative; as Enroot 4.1.2 does, no folder is "
          "created in the image (/etc/rc creates it when the container starts, relative to the "
          "folder it starts in)");
    config.working_dir = "../up";
    CHECK(write_enroot_files(builder->root_fd(), config, lock::EnrootLocale::utf8));
    config.working_dir = "/abs";
    CHECK(!workdir_warning(config).has_value());
  }

  TEST_CASE("a path that one layer holds as a file and as a folder is refused, as Enroot's tar") {
    // tests/data/squashfs/make_same_layer_tars.py; GNU tar fails on the first four.
    const std::string x_file = "', which the same layer holds as a file (Enroot's import fails "
                               "on this layer; envlock will not turn the file into a folder)";
    const std::string x_folder = "' in the same layer (Enroot's import fails on this layer; "
                                 "envlock will not drop what the layer put in the folder)";
    const std::vector<std::pair<std::string, std::string>> refused = {
        {"file_whiteout", "'data/x/.wh.y': lies under 'data/x" + x_file},
        {"file_child", "'data/x/y': lies under 'data/x" + x_file},
        {"whiteout_file", "'data/x': replaces the folder that holds 'data/x/.wh.y" + x_folder},
        {"filled_dir_file", "'data/x': replaces the folder that holds 'data/x/y" + x_folder}};
    for (const auto& entry : refused) {
      const std::string& name = entry.first; // not a structured binding: clang 14's CAPTURE
      const std::string& why = entry.second;
      CAPTURE(name);
      Fixture f;
      auto builder = RootfsBuilder::open(f.root);
      REQUIRE(builder);
      const std::string tar = "same_layer_" + name + ".tar";
      auto status = apply(*builder, tar);
      REQUIRE(!status);
      CHECK(status.error().message == "layer " + digest_of(tar) + ": " + why);
      CHECK(status.error().code == ExitCode::usage);
    }
    Fixture f;
    auto builder = RootfsBuilder::open(f.root);
    REQUIRE(builder);
    REQUIRE(apply(*builder, "same_layer_empty_dir_file.tar"));
    CHECK(fs::is_regular_file(f.root / "data/x"));
    REQUIRE(apply(*builder, "same_layer_file_dir.tar"));
    CHECK(fs::is_directory(f.root / "data/x"));
  }

  TEST_CASE("whiteouts of '.' and '..' are refused as malformed, naming the layer and entry") {
    // tests/data/squashfs/make_hostile_tars.py
    struct Case {
      std::string name, entry, target;
    };
    for (const Case& c : std::vector<Case>{{"hostile_whiteout_dot.tar", "data/.wh..", "."},
                                           {"hostile_whiteout_dotdot.tar", "data/.wh...", ".."}}) {
      const std::string& name = c.name;
      const std::string& entry = c.entry;
      const std::string& target = c.target;
      CAPTURE(name);
      Fixture f;
      auto builder = RootfsBuilder::open(f.root);
      REQUIRE(builder);
      const auto status = apply(*builder, name);
      REQUIRE(!status);
      CHECK(status.error().code == ExitCode::usage);
      CHECK(status.error().message == "layer " + digest_of(name) + ": '" + entry +
                                          "': a whiteout of '" + target +
                                          "' (a malformed layer: only a name in the folder can "
                                          "be hidden)");
      CHECK(fs::is_directory(f.root / "data")); // nothing above it was touched
    }
  }

  TEST_CASE("a sparse member claiming 8 TiB is refused before the file takes that size") {
    for (const std::string name : {"hostile_sparse_head.tar", "hostile_sparse_tail.tar"}) {
      CAPTURE(name);
      Fixture f;
      auto builder = RootfsBuilder::open(f.root);
      REQUIRE(builder);
      const auto status = apply(*builder, name);
      REQUIRE(!status);
      CHECK(status.error().code == ExitCode::usage);
      CHECK(status.error().message ==
            "layer " + digest_of(name) +
                ": 'data/huge': a sparse file of 8796093022208 bytes of which 1 are stored: a "
                "layer may leave at most 17179869184 bytes of holes in its files (mksquashfs "
                "reads every one)");
      struct stat st {};
      if (::stat((f.root / "data/huge").c_str(), &st) == 0) {
        CHECK(static_cast<std::uint64_t>(st.st_size) <= RootfsBuilder::k_max_layer_holes);
      }
    }
  }
}
