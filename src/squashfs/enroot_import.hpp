// `envlock squashfs --enroot`: runs Enroot's own `enroot import` with a pinned environment
// (SOURCE_DATE_EPOCH, ENROOT_SQUASH_OPTIONS, LC_ALL, umask 022, every ENROOT_*_PATH in a temporary
// folder), so its output can be recorded and compared with envlock's.
#pragma once

#include "formats/squashfs_result.hpp"
#include "oci/image_ref.hpp"
#include "squashfs/mksquashfs.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace envlock::squashfs {

struct EnrootCommand {
  std::vector<std::string> argv;
  std::map<std::string, std::string> env;
};

// The URI Enroot understands for `image`, in the '#' form every Enroot 3.x/4.x parses, with a
// digest written as the tag: docker://REGISTRY#REPOSITORY:sha256:HEX (or :TAG without a digest).
std::string enroot_uri(const oci::ImageRef& image);

// The command and environment for `enroot import -a ARCH -o OUTPUT URI`; `scratch` holds Enroot's
// cache, data, runtime and temp paths. `arch` is Enroot's (x86_64, aarch64).
EnrootCommand enroot_import_command(const oci::ImageRef& image, const std::string& arch,
                                    const std::filesystem::path& output,
                                    const std::filesystem::path& scratch,
                                    const SquashSettings& settings);

// Runs the command; an environment error "enroot: not found in PATH" when Enroot is not
// installed, or Enroot's last output lines when it fails.
Status run_enroot_import(const EnrootCommand& command);

// Enroot's architecture name for an OCI platform ("linux/amd64" -> "x86_64").
std::string enroot_arch(const std::string& platform);

// Imports `image` (by digest) for `platform` with the installed Enroot into `output`, and
// describes the .sqsh it wrote as `envlock squashfs` describes its own (producer "enroot"). Fails
// like run_enroot_import, or when the .sqsh cannot be read back.
Result<formats::SquashfsResult> import_with_enroot(const oci::ImageRef& image,
                                                   const std::string& platform,
                                                   const std::filesystem::path& output,
                                                   const SquashSettings& settings);

} // namespace envlock::squashfs
