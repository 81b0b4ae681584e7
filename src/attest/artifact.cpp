#include "attest/artifact.hpp"

#include "formats/report.hpp"
#include "util/base64.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

namespace envlock::attest {

using nlohmann::json;

namespace {

constexpr const char* k_slsa_provenance_predicate = "https://slsa.dev/provenance/v1";

std::string json_text(const json& value, const char* key) {
  const auto it = value.find(key);
  return it != value.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Result<AttestationFile> classify_envelope(std::string_view title, std::string bytes,
                                          const json& envelope) {
  const auto payload = util::base64_decode_lenient(json_text(envelope, "payload"));
  const auto statement =
      payload ? json::parse(*payload, nullptr, /*allow_exceptions=*/false) : json();
  const std::string predicate = statement.is_object() ? json_text(statement, "predicateType") : "";
  AttestationFile out;
  out.title = std::string(title);
  out.media_type = k_dsse_media_type;
  out.predicate_type = predicate;
  if (predicate == k_slsa_provenance_predicate) {
    out.kind = Kind::provenance;
  } else if (predicate == k_test_result_predicate) {
    out.kind = Kind::node;
  } else {
    return input_error(
        std::string(title) + ": a DSSE envelope whose statement's predicateType is '" + predicate +
        "', neither " + k_slsa_provenance_predicate + " nor " + k_test_result_predicate);
  }
  out.bytes = std::move(bytes);
  return out;
}

} // namespace

const char* to_string(Kind kind) {
  switch (kind) {
  case Kind::provenance:
    return "provenance";
  case Kind::sbom:
    return "sbom";
  case Kind::node:
    return "node";
  case Kind::report:
    break;
  }
  return "report";
}

Result<Kind> parse_kind(std::string_view text) {
  for (const Kind kind : {Kind::provenance, Kind::sbom, Kind::node, Kind::report}) {
    if (text == to_string(kind)) {
      return kind;
    }
  }
  return input_error("--type '" + std::string(text) +
                     "': not one of provenance, sbom, node, report");
}

Result<AttestationFile> classify(std::string_view title, std::string bytes) {
  const json doc = json::parse(bytes, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) {
    return input_error(std::string(title) + ": not a JSON object (a signed provenance, an SBOM, a "
                                            "signed node verdict or a verification report)");
  }
  if (doc.contains("payloadType") && doc.contains("payload") && doc.contains("signatures")) {
    return classify_envelope(title, std::move(bytes), doc);
  }
  AttestationFile out;
  out.title = std::string(title);
  if (json_text(doc, "bomFormat") == "CycloneDX") {
    out.kind = Kind::sbom;
    out.media_type = k_cyclonedx_media_type;
  } else if (json_text(doc, "schema") == formats::k_report_schema) {
    out.kind = Kind::report;
    out.media_type = k_report_media_type;
  } else {
    return input_error(std::string(title) +
                       ": neither a DSSE envelope, a CycloneDX SBOM nor an envlock verification "
                       "report (schema " +
                       formats::k_report_schema + ")");
  }
  out.bytes = std::move(bytes);
  return out;
}

std::string artifact_manifest(const AttestationFile& file, const Subject& subject) {
  json annotations = {{k_kind_annotation, to_string(file.kind)}};
  if (!file.predicate_type.empty()) {
    annotations[k_predicate_annotation] = file.predicate_type;
  }
  const json manifest = {
      {"schemaVersion", 2},
      {"mediaType", "application/vnd.oci.image.manifest.v1+json"},
      {"artifactType", file.media_type},
      {"config",
       {{"mediaType", "application/vnd.oci.empty.v1+json"},
        {"digest", k_empty_config_digest},
        {"size", k_empty_config.size()}}},
      {"layers", json::array({{{"mediaType", file.media_type},
                               {"digest", "sha256:" + util::sha256_hex(file.bytes)},
                               {"size", file.bytes.size()},
                               {"annotations", {{k_title_annotation, file.title}}}}})},
      {"subject",
       {{"mediaType", subject.media_type}, {"digest", subject.digest}, {"size", subject.size}}},
      {"annotations", annotations}};
  std::string text = util::canonical_json(manifest);
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  return text;
}

json referrer_descriptor(std::string_view manifest, const std::string& digest) {
  const json doc = json::parse(manifest, nullptr, /*allow_exceptions=*/false);
  json out = {
      {"mediaType", json_text(doc, "mediaType")}, {"digest", digest}, {"size", manifest.size()}};
  std::string type = json_text(doc, "artifactType");
  if (type.empty() && doc.contains("config") && doc["config"].is_object()) {
    type = json_text(doc["config"], "mediaType");
  }
  if (!type.empty()) {
    out["artifactType"] = type;
  }
  if (doc.contains("annotations") && doc["annotations"].is_object()) {
    out["annotations"] = doc["annotations"];
  }
  return out;
}

std::optional<Kind> kind_of(const json& descriptor) {
  if (descriptor.contains("annotations") && descriptor["annotations"].is_object()) {
    if (auto kind = parse_kind(json_text(descriptor["annotations"], k_kind_annotation))) {
      return *kind;
    }
  }
  const std::string type = json_text(descriptor, "artifactType");
  if (type == k_cyclonedx_media_type) {
    return Kind::sbom;
  }
  if (type == k_report_media_type) {
    return Kind::report;
  }
  return std::nullopt;
}

} // namespace envlock::attest
