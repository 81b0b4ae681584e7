// Image layers: any bytes, applied as a layer onto an empty rootfs, either apply or fail with one
// error, and nothing is ever written outside the rootfs (a sibling folder stays empty). The same
// bytes read as a tar stream for the tree digest give a tree or one error.
#include "squashfs/rootfs_builder.hpp"
#include "squashfs/tree_digest.hpp"
#include "util/fs.hpp"
#include "util/sha256.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <sys/mman.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace envlock;

namespace {

void read_as_tree(std::string_view bytes) {
  const int fd = memfd_create("layer", 0);
  if (fd < 0) {
    std::abort();
  }
  if (write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()) ||
      lseek(fd, 0, SEEK_SET) != 0) {
    std::abort();
  }
  (void)squashfs::read_tree_tar(fd, "layer");
  close(fd);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  read_as_tree(bytes);

  const util::TempDir temp = util::TempDir::create("envlock-fuzz-layer").value();
  const fs::path root = temp.path() / "rootfs";
  const fs::path outside = temp.path() / "outside";
  fs::create_directory(root);
  fs::create_directory(outside);
  const fs::path blob = temp.path() / "layer.tar";
  if (!util::write_file_atomic(blob, bytes)) {
    std::abort();
  }
  auto builder = squashfs::RootfsBuilder::open(root);
  if (!builder) {
    std::abort();
  }
  const std::string digest = "sha256:" + util::sha256_hex(bytes);
  if (builder->apply_layer(blob, digest, nullptr)) {
    (void)builder->finish();
  }
  if (!fs::is_empty(outside)) {
    std::abort(); // a layer wrote outside its rootfs
  }
  return 0;
}
