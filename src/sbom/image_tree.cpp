#include "sbom/image_tree.hpp"

#include "formats/squashfs_result.hpp"
#include "squashfs/registry_source.hpp"
#include "squashfs/superblock.hpp"
#include "squashfs/unpack.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace envlock::sbom {

namespace fs = std::filesystem;

namespace {

Result<fs::path> make_rootfs(const util::TempDir& scratch) {
  const fs::path rootfs = scratch.path() / "rootfs";
  if (::mkdir(rootfs.c_str(), 0755) != 0) {
    return env_error(rootfs.string() + ": " + std::strerror(errno));
  }
  return rootfs;
}

} // namespace

Result<ImageTree> tree_of_folder(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return input_error("--root " + dir.string() + ": not a folder");
  }
  ImageTree tree;
  tree.root = dir;
  return tree;
}

Result<ImageTree> tree_of_sqsh(const fs::path& sqsh) {
  ENVLOCK_TRY(squashfs::read_superblock(sqsh));
  ImageTree tree;
  ENVLOCK_TRY_ASSIGN(tree.scratch, util::TempDir::create("envlock-sbom"));
  tree.root = tree.scratch->path() / "rootfs";
  ENVLOCK_TRY_ASSIGN(const util::ProcessResult unpacked,
                     util::run_process({"unsquashfs", "-no-progress", "-no-xattrs", "-d",
                                        tree.root.string(), sqsh.string()}));
  if (unpacked.exit_code != 0) {
    return env_error("unsquashfs " + sqsh.string() + ": exit " +
                     std::to_string(unpacked.exit_code) + ": " +
                     std::string(util::trim(unpacked.err)));
  }
  tree.facts.sqsh_file = sqsh.filename().string();
  ENVLOCK_TRY_ASSIGN(tree.facts.sqsh_sha256, util::sha256_file_hex(sqsh));
  if (auto found = formats::find_squashfs_result_beside(sqsh)) {
    const formats::SquashfsResult& result = found->result;
    if (result.sha256 == tree.facts.sqsh_sha256) {
      tree.facts.reference = result.image_reference;
      tree.facts.digest = result.manifest_digest;
      if (auto ref = oci::parse_image_ref(result.image_reference)) {
        tree.facts.name = ref->name();
      }
      tree.notes.push_back("the image: " + result.image_reference + " (from " +
                           found->path.string() + ")");
    } else {
      tree.notes.push_back(found->path.string() + " records another .sqsh (sha256 " +
                           result.sha256 + "); its image is not named");
    }
  }
  return tree;
}

Result<ImageTree> tree_of_image(const oci::ImageRef& image, const std::string& platform,
                                const oci::RegistryOptions& options, lock::EnrootLocale locale) {
  if (image.digest.empty()) {
    return input_error("--image " + image.to_string() +
                       ": give the image by digest (REF@sha256:...), so that the SBOM is of "
                       "one image");
  }
  ImageTree tree;
  ENVLOCK_TRY_ASSIGN(tree.scratch, util::TempDir::create("envlock-sbom"));
  ENVLOCK_TRY_ASSIGN(tree.root, make_rootfs(*tree.scratch));
  ENVLOCK_TRY_ASSIGN(auto source, squashfs::make_registry_source(image, options));
  ENVLOCK_TRY_ASSIGN(const squashfs::UnpackedImage unpacked,
                     squashfs::unpack_image(*source, platform, tree.root, locale,
                                            squashfs::ProgressMode::quiet, "reading"));
  tree.facts.reference = image.to_string();
  tree.facts.name = image.name();
  tree.facts.digest = unpacked.manifest_digest;
  tree.notes = unpacked.warnings;
  return tree;
}

} // namespace envlock::sbom
