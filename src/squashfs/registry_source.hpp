// BlobSource over a registry (oci::RegistryClient): the manifest for the platform, and blobs
// streamed into a temporary folder with their digest checked on the way.
#pragma once

#include "oci/image_ref.hpp"
#include "oci/registry.hpp"
#include "squashfs/blob_source.hpp"

#include <memory>

namespace envlock::squashfs {

// `image` should carry a digest (REF@DIGEST), so the squashed image is the one that was pinned.
// Blobs are kept in a temporary folder removed with the source; an environment error when that
// folder cannot be made.
Result<std::unique_ptr<BlobSource>> make_registry_source(oci::ImageRef image,
                                                         oci::RegistryOptions options);

} // namespace envlock::squashfs
