// The image a Pyxis importer is asked for: an Enroot URI,
//   docker://[USER@][REGISTRY#]IMAGE[:TAG][@sha256:…]   (Enroot's own form)
//   docker://[USER@][REGISTRY/]IMAGE[:TAG][@sha256:…]   (the Docker form Enroot 4 also reads)
// or the path of a .sqsh (it starts with '/' or '.', as Pyxis tells them apart). Parsed and
// printed without I/O.
#pragma once

#include "oci/image_ref.hpp"
#include "util/result.hpp"

#include <string>
#include <string_view>

namespace envlock::importer {

enum class UriKind { docker, sqsh_path };

struct ImageUri {
  UriKind kind = UriKind::docker;
  std::string text;    // as given
  std::string user;    // USER@ (registry login), may be empty; never part of a lookup
  oci::ImageRef image; // docker: registry, repository, tag (empty: none given), digest
  std::string path;    // sqsh_path: the path as given
};

// Parses `text` the way Enroot reads a URI: with '#' the part before it is the registry; without,
// the first path component is a registry only when it holds '.' or ':' (else the image is on
// Docker Hub); docker.io and index.docker.io mean registry-1.docker.io, and a one-component
// Docker Hub image gets "library/". A tag of the form sha256:HEX (Enroot 3's way of pinning) is
// the digest. Input error (exit 2): "invalid image URI 'TEXT': WHY".
Result<ImageUri> parse_image_uri(std::string_view text);

// The reference a lookup uses: "@sha256:…" when the URI has a digest, else ":TAG" (":latest"
// when no tag was given, as Enroot defaults).
std::string wanted_reference(const ImageUri& uri);

} // namespace envlock::importer
