// Attaching attestation files to an image in its registry, shared by `envlock attest push` and
// `envlock build --push --attest`: each file pushed as an OCI artifact of the image, one line
// on standard output per file saying where the registry lists it.
#pragma once

#include "attest/artifact.hpp"
#include "oci/image_ref.hpp"
#include "oci/registry.hpp"
#include "util/result.hpp"

#include <vector>

namespace envlock::cli {

// Pushes `files` as artifacts of `image` (REF@DIGEST), in order, printing
// "pushed TITLE (KIND) as REPO@DIGEST, listed …" for each. Stops at the first failure.
Status attach_files(oci::RegistryClient& client, const oci::ImageRef& image,
                    const std::vector<attest::AttestationFile>& files);

} // namespace envlock::cli
