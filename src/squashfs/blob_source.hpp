// Where the image to squash comes from: a registry or an OCI image layout folder. Both give the
// platform manifest and a local file per blob, so the rest of the pipeline does not care which.
// Blob bytes are checked against their digest while they are read (layer_apply.hpp) or, for
// small documents, before they are parsed (read_verified_blob).
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace envlock::squashfs {

// The manifest chosen for a platform: its digest and its exact bytes.
struct ManifestBlob {
  std::string digest;
  std::string body;
};

class BlobSource {
public:
  BlobSource() = default;
  BlobSource(const BlobSource&) = delete;
  BlobSource& operator=(const BlobSource&) = delete;
  BlobSource(BlobSource&&) = delete;
  BlobSource& operator=(BlobSource&&) = delete;
  virtual ~BlobSource() = default;

  // The image manifest for `platform` ("linux/amd64"), following an index when there is one.
  // Fails with an input error when the image or the platform is not there.
  virtual Result<ManifestBlob> manifest(std::string_view platform) = 0;

  // A local file with the bytes of blob `digest`, whose descriptor gives `size` (nothing when it
  // gives none). The caller checks the digest while reading it.
  virtual Result<std::filesystem::path> blob_file(std::string_view digest,
                                                  std::optional<std::uint64_t> size) = 0;
};

// An OCI image layout folder (index.json, blobs/sha256/...). `ref` picks the image: a digest, an
// org.opencontainers.image.ref.name annotation, or empty when the layout holds one image.
std::unique_ptr<BlobSource> make_layout_source(std::filesystem::path dir, std::string ref);

// Reads blob `digest` from `path` whole (limit 64 MiB) and checks its sha256; a mismatch is an
// input error "blob sha256:...: digest mismatch (got sha256:...)".
Result<std::string> read_verified_blob(const std::filesystem::path& path, std::string_view digest);

} // namespace envlock::squashfs
