// One attestation as an OCI artifact (OCI image spec 1.1): what kind of file it is (signed
// provenance, SBOM, signed node verdict, verification report), and the artifact manifest that
// carries it: artifactType, the empty config, one layer with the file's bytes, the image manifest
// as `subject`. The manifest's bytes are canonical JSON, so the same file attached to the same
// image is the same artifact (the same digest), however often it is pushed.
// docs/formats/attestation.md lists the types and annotations.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::attest {

enum class Kind { provenance, sbom, node, report };

// "provenance", "sbom", "node", "report".
const char* to_string(Kind kind);
// The kind a --type word names; an input error listing the four otherwise.
Result<Kind> parse_kind(std::string_view text);

inline constexpr const char* k_dsse_media_type = "application/vnd.dsse.envelope.v1+json";
inline constexpr const char* k_cyclonedx_media_type = "application/vnd.cyclonedx+json";
inline constexpr const char* k_report_media_type = "application/vnd.envlock.report.v1+json";
inline constexpr const char* k_predicate_annotation = "in-toto.io/predicate-type";
inline constexpr const char* k_kind_annotation = "dev.envlock.attestation";
inline constexpr const char* k_title_annotation = "org.opencontainers.image.title";
inline constexpr const char* k_test_result_predicate =
    "https://in-toto.io/attestation/test-result/v0.1";
// The empty config: its bytes and their digest (OCI image spec, "Guidance for an empty
// descriptor").
inline constexpr std::string_view k_empty_config = "{}";
inline constexpr const char* k_empty_config_digest =
    "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";

struct AttestationFile {
  Kind kind = Kind::provenance;
  std::string title;          // the file's name, no folder
  std::string bytes;          // exactly as read
  std::string media_type;     // of the layer, and the manifest's artifactType
  std::string predicate_type; // for a DSSE envelope: its statement's predicateType
};

// What `bytes` are: a DSSE envelope of an in-toto Statement whose predicate is SLSA provenance
// (provenance) or a test result (node); a CycloneDX document (sbom); an envlock verification
// report (report). An input error naming `title` otherwise. Signatures are not checked here.
Result<AttestationFile> classify(std::string_view title, std::string bytes);

// The subject: the image manifest the artifact refers to.
struct Subject {
  std::string media_type;
  std::string digest;
  std::uint64_t size = 0;
};

// The artifact manifest's canonical bytes.
std::string artifact_manifest(const AttestationFile& file, const Subject& subject);

// The descriptor of an artifact manifest as the referrers list holds it: mediaType, digest,
// size, artifactType and the manifest's annotations (OCI distribution spec 1.1).
nlohmann::json referrer_descriptor(std::string_view manifest, const std::string& digest);

// The kind a referrer descriptor names (its annotation, else its artifactType); nothing for a
// referrer that is none of envlock's kinds.
std::optional<Kind> kind_of(const nlohmann::json& descriptor);

} // namespace envlock::attest
