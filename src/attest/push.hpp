// `envlock attest push`: an attestation file becomes an OCI artifact whose subject is the image
// manifest, pushed into the image's repository so that the referrers API lists it. A registry
// that does not say it processed the subject (no OCI-Subject header; Debian's docker-registry 2.8
// has no referrers API) gets the referrers tag schema instead: the index at tag sha256-HEX is read,
// the artifact added, and the index pushed back, guarded against other writers:
// - the PUT carries If-Match with the ETag the read returned, so a registry that honours
//   conditions refuses it (412) when the tag moved meanwhile, and the update starts again;
// - a registry that ignores If-Match (docker-registry 2.8) is read back after a short, random
//   settle time: when another writer's index replaced ours without our artifact, ours is added
//   again; the update ends only after two read-backs in a row list it.
// A writer whose read and write straddle both read-backs of another can still drop that one's
// entry; the spec leaves that race to the clients, and a registry with the referrers API has none.
#pragma once

#include "attest/artifact.hpp"
#include "oci/image_ref.hpp"
#include "oci/registry.hpp"
#include "util/result.hpp"

#include <chrono>
#include <string>

namespace envlock::attest {

enum class Listing { referrers_api, tag_schema };

struct Pushed {
  std::string title;
  Kind kind = Kind::provenance;
  std::string digest; // the artifact manifest's
  Listing listing = Listing::referrers_api;
  std::string tag;      // the referrers tag, for Listing::tag_schema
  int index_writes = 0; // how often the tag's index was written (1 without a competing writer)
};

struct PushSettings {
  std::chrono::milliseconds settle{150}; // the read-back wait: settle to 2 x settle, at random
  int max_rounds = 12;                   // reads of the tag before giving up
};

// Pushes `file` as an artifact of `image` (REF@DIGEST, the subject). Environment errors from the
// registry name the redacted URL and status; an input error when `image` has no digest or the
// tag holds something else than an index.
Result<Pushed> push_attestation(oci::RegistryClient& client, const oci::ImageRef& image,
                                const AttestationFile& file, const PushSettings& settings = {});

// The subject descriptor of `image` (REF@DIGEST): its media type and size, from its manifest.
Result<Subject> subject_of(oci::RegistryClient& client, const oci::ImageRef& image);

} // namespace envlock::attest
