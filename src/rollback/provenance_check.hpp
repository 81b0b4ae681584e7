// The previous image's signed provenance, found among its attestations in the registry by its
// digest (`envlock attest push` put it there): `rollback check --pub KEY` makes it one more check,
// `image.provenance`. It passes when an attached envelope verifies with the key, describes the
// previous lock and names the image's digest; a registry that cannot be asked makes it an error,
// not a failure.
#pragma once

#include "oci/image_ref.hpp"
#include "provenance/keys.hpp"
#include "rollback/report.hpp"
#include "util/result.hpp"

#include <functional>
#include <string>
#include <vector>

namespace envlock::rollback {

// One attestation of the image: its artifact manifest's digest and the file's bytes.
struct AttachedFile {
  std::string digest;
  std::string bytes;
};

// What the registry holds of an image's provenance attestations.
struct Attached {
  std::string looked_in; // "the referrers API", "tag sha256-HEX"
  std::vector<AttachedFile> files;
};

// The provenance attestations of `image` (NAME@DIGEST): `envlock attest`'s list and fetch, or a
// stand-in in tests. An error when the registry could not be asked.
using AttachedProbe = std::function<Result<Attached>(const oci::ImageRef& image)>;

// What the provenance check needs to know of the previous environment.
struct ProvenanceTarget {
  std::string image;       // NAME@DIGEST
  std::string lock_name;   // the previous lock's file name, for messages
  std::string lock_sha256; // its digest, as provenance names it
  std::string source;      // the record that names the image: "build-result.json: image.digest"
};

// The check `image.provenance` of `target`, its envelopes checked against `key` (read from
// `key_origin`).
Check check_attached_provenance(const ProvenanceTarget& target, const provenance::Key& key,
                                const std::string& key_origin, const AttachedProbe& probe);

} // namespace envlock::rollback
