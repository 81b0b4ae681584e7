// The SBOM of an image tree, as `envlock sbom` writes it and `envlock build --push --attest sbom`
// attaches it: the tree (a folder, a .sqsh, or an image pulled by digest), the lock and the
// uv.lock it records, collected and written as canonical CycloneDX 1.6 JSON. Notes (where the
// image came from, a uv.lock not found) go to standard error.
#pragma once

#include "oci/registry.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace envlock::cli {

struct SbomSource {
  std::string root; // one of root, sqsh and image
  std::string sqsh;
  std::string image;               // REF@DIGEST
  std::optional<std::string> lock; // the lock file; nothing: compared with no lock
  std::string platform;            // with image; empty: the lock's, else linux/amd64
  std::optional<std::int64_t> source_date_epoch;
  oci::RegistryOptions registry;
};

// The document's bytes. Input errors for a lock or uv.lock that cannot be read or do not match;
// the tree's errors as sbom/image_tree.hpp says.
Result<std::string> sbom_document(const SbomSource& source);

} // namespace envlock::cli
