// Package URLs (https://github.com/package-url/purl-spec):
// pkg:TYPE/NAMESPACE/NAME@VERSION?QUALIFIERS, each part percent-encoded as the spec has it,
// qualifiers sorted by key.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace envlock::sbom {

// Percent-encodes every byte but ASCII letters, digits and ".-_~" (and '/' when `keep_slash`).
std::string purl_encode(std::string_view text, bool keep_slash = false);

// "pkg:TYPE/NAMESPACE/NAME@VERSION?k=v&..." (no namespace, version or qualifiers when empty).
std::string make_purl(std::string_view type, std::string_view namespace_part, std::string_view name,
                      std::string_view version,
                      const std::map<std::string, std::string>& qualifiers = {});

// pkg:pypi/NAME@VERSION: the PEP 503 name (lowercase, '-' for runs of '-', '_', '.').
std::string pypi_purl(std::string_view normalized_name, std::string_view version);

// pkg:oci/NAME@DIGEST?repository_url=REGISTRY/REPOSITORY for an image name
// ("registry.example.invalid/ml/base") and its manifest digest.
std::string oci_purl(std::string_view image_name, std::string_view digest);

} // namespace envlock::sbom
