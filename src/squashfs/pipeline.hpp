// `envlock squashfs`: image -> rootfs -> Enroot's files -> mksquashfs -> .sqsh and
// squashfs-result.json. The .sqsh is byte-identical to `enroot import` (4.1.2) of the same image
// under SOURCE_DATE_EPOCH and umask 022, given the same squashfs-tools.
#pragma once

#include "formats/squashfs_result.hpp"
#include "oci/platform.hpp"
#include "squashfs/blob_source.hpp"
#include "squashfs/mksquashfs.hpp"
#include "squashfs/progress.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace envlock::squashfs {

struct SquashJob {
  BlobSource* source = nullptr;
  std::string image_reference; // recorded in the result
  std::string platform = oci::k_default_platform;
  SquashSettings settings;
  std::filesystem::path output;      // the .sqsh
  std::filesystem::path result_path; // squashfs-result.json
  ProgressMode progress = ProgressMode::quiet;
};

struct SquashOutcome {
  formats::SquashfsResult result;
  std::vector<std::string> warnings; // neutralised layer entries
};

// Builds the rootfs from the image's layers in a temporary folder, squashes it, and writes the
// .sqsh and the result file atomically. Input errors: bad manifest/config/layer (digest
// mismatch, unsafe entry); environment errors: missing tools, I/O, mksquashfs failures.
Result<SquashOutcome> squash_image(const SquashJob& job);

// Fills the file fields of `result` (name, sha256, size, superblock) from the .sqsh at `path`.
Status describe_sqsh(const std::filesystem::path& path, formats::SquashfsResult& result);

} // namespace envlock::squashfs
