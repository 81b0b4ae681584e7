// The images the configured locks pin, and which of them an image URI asks for. A lock pins its
// base image and the images its upstream recipe's FROM lines name (by digest, in the lock), and
// the image it builds (image.repository:image.tag) once build-result.json beside the lock records
// that image's digest for this very lock. A tag is resolved through these pins, never through
// the network.
#pragma once

#include "importer/config.hpp"
#include "importer/image_uri.hpp"
#include "oci/image_ref.hpp"
#include "squashfs/mksquashfs.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::importer {

// One image a lock pins.
struct Pin {
  std::string role;            // "base_image", "image" or "recipe.images[LINE]"
  oci::ImageRef image;         // registry/repository, the tag (may be empty) and the digest
  std::string platform;        // os/arch[/variant], the lock's base_image.platform
  std::string platform_digest; // the image manifest for `platform` (what is squashed)
  std::filesystem::path lock_path;
  std::string lock_sha256;
  squashfs::SquashSettings settings; // the lock's Enroot settings (Enroot's defaults filled in)
};

struct Catalogue {
  std::vector<Pin> pins;                         // in the order the locks were read
  std::vector<std::filesystem::path> lock_files; // every lock read
  std::vector<std::string> warnings;             // locks and build results not read, and why
};

// Reads every lock the configuration names: a file, or a folder whose files ending in
// ".lock.json" are read in name order. An input error names a lock that cannot be read, or an
// entry that is neither; a folder holding no lock is an input error too. Under Trust::system (a
// job's configuration), a lock or build result not on a trusted path (trusted_path.hpp: a user's
// file, a link) pins nothing: it is skipped with a warning.
Result<Catalogue> read_catalogue(const std::vector<std::filesystem::path>& entries,
                                 Trust trust = Trust::caller);

// The pin `uri` asks for: same registry and repository, and the URI's digest equal to the pin's
// digest or platform digest, or (without a digest) the URI's tag equal to the pin's (latest when
// the URI has none). Nothing when no lock pins it. An input error when two locks pin the tag to
// different digests (naming both locks).
Result<std::optional<Pin>> find_pin(const Catalogue& catalogue, const ImageUri& uri);

// The pin whose platform manifest is `manifest_digest` in `name` (registry/repository), if any.
std::optional<Pin> find_pin_by_manifest(const Catalogue& catalogue, const std::string& name,
                                        const std::string& manifest_digest);

} // namespace envlock::importer
