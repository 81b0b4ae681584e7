// `envlock attest list` and `fetch`: the attestations of an image found by its digest, through
// the referrers API or, where the registry has none (it answers 404), the referrers tag schema;
// then each artifact's file, its bytes checked against the digests of its manifest and layer.
#pragma once

#include "attest/artifact.hpp"
#include "attest/push.hpp"
#include "oci/image_ref.hpp"
#include "oci/registry.hpp"
#include "util/result.hpp"

#include <optional>
#include <string>
#include <vector>

namespace envlock::attest {

struct Listed {
  std::string digest;        // the artifact manifest's
  std::string artifact_type; // as the referrers list gives it
  std::optional<Kind> kind;  // nothing: not one of envlock's kinds
  std::string predicate_type;
  std::uint64_t size = 0;
};

struct AttestationList {
  Listing via = Listing::referrers_api;
  std::string tag;               // for Listing::tag_schema
  std::vector<Listed> referrers; // in the registry's order
};

// The referrers of `image` (REF@DIGEST), of `kind` only when given, each digest once (the first
// descriptor that lists it), in the registry's order. An image with none gives an empty list (a
// tag that holds no valid index counts as none, as the spec says). The listing is bounded as a
// whole (oci::ReferrersLimits: entries, bytes, pages, seconds); past a limit, an environment error
// names it.
Result<AttestationList> list_attestations(oci::RegistryClient& client, const oci::ImageRef& image,
                                          std::optional<Kind> kind);

struct Fetched {
  Listed listed;
  std::string title; // the layer's title annotation; empty when none
  std::string bytes;
};

// The file of the artifact `listed`: its manifest by digest, its one layer by digest.
Result<Fetched> fetch_attestation(oci::RegistryClient& client, const oci::ImageRef& image,
                                  const Listed& listed);

} // namespace envlock::attest
