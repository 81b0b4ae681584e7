// CycloneDX 1.6 JSON (https://cyclonedx.org/docs/1.6/json/) of a Bom: bomFormat, specVersion,
// serialNumber, version 1, metadata (timestamp, the envlock tool, the image with its base image
// as pedigree ancestor, properties) and the components, sorted by type, name, version and
// bom-ref. The same Bom gives the same bytes: the serial number is a name-based UUID taken from
// the sha256 of the document's canonical bytes without it, and the timestamp comes from the
// inputs (SOURCE_DATE_EPOCH or the lock's), never from the clock.
#pragma once

#include "sbom/bom.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace envlock::sbom {

inline constexpr const char* k_cyclonedx_spec_version = "1.6";

// The document as JSON; util::canonical_json gives its bytes.
nlohmann::json to_cyclonedx(const Bom& bom);

// "urn:uuid:XXXXXXXX-XXXX-5XXX-YXXX-XXXXXXXXXXXX" from the first 16 bytes of the sha256 of
// `text`, with the version (5, name-based) and variant bits set as RFC 4122 has them.
std::string name_based_urn_uuid(const std::string& text);

} // namespace envlock::sbom
