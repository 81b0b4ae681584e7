// An image's tree as the .sqsh holds it, unpacked into a folder: the platform's layers applied
// in order (rootfs_builder.hpp), Enroot's permission fix-ups and its files (/etc/rc with the
// labels, /etc/environment, /etc/fstab). `envlock squashfs` squashes this tree; `envlock sbom
// --image` reads it.
#pragma once

#include "lock/lock.hpp"
#include "squashfs/blob_source.hpp"
#include "squashfs/progress.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::squashfs {

struct UnpackedImage {
  std::string manifest_digest;       // the platform manifest whose layers were applied
  std::vector<std::string> warnings; // neutralised layer entries, an odd WorkingDir
};

// Builds the tree in the existing, empty folder `rootfs`. Input errors: a bad manifest, config or
// layer (digest mismatch, unsafe entry); environment errors: I/O. `final_stage` is the word the
// progress line shows once the layers are applied ("squashing").
Result<UnpackedImage> unpack_image(BlobSource& source, std::string_view platform,
                                   const std::filesystem::path& rootfs, lock::EnrootLocale locale,
                                   ProgressMode progress, const std::string& final_stage);

} // namespace envlock::squashfs
