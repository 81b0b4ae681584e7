#include "attest/list.hpp"

#include "attest/tag_index.hpp"

#include <set>

namespace envlock::attest {

using nlohmann::json;

namespace {

constexpr std::uint64_t k_attestation_limit = std::uint64_t{64} << 20U;

std::string listed_text(const json& value, const char* key) {
  const auto it = value.find(key);
  return it != value.end() && it->is_string() ? it->get<std::string>() : std::string();
}

Listed listed_of(const json& descriptor) {
  Listed out;
  out.digest = listed_text(descriptor, "digest");
  out.artifact_type = listed_text(descriptor, "artifactType");
  out.kind = kind_of(descriptor);
  if (descriptor.contains("annotations") && descriptor["annotations"].is_object()) {
    out.predicate_type = listed_text(descriptor["annotations"], k_predicate_annotation);
  }
  if (descriptor.contains("size") && descriptor["size"].is_number_unsigned()) {
    out.size = descriptor["size"].get<std::uint64_t>();
  }
  return out;
}

} // namespace

Result<AttestationList> list_attestations(oci::RegistryClient& client, const oci::ImageRef& image,
                                          std::optional<Kind> kind) {
  if (image.digest.empty()) {
    return input_error(image.to_string() +
                       ": give the image by digest (REF@sha256:...); attestations are found by "
                       "the digest");
  }
  AttestationList out;
  json index = empty_index();
  ENVLOCK_TRY_ASSIGN(const auto answer, client.get_referrers(image, image.digest));
  if (answer) {
    index = json::parse(answer->index, nullptr, /*allow_exceptions=*/false);
  } else {
    out.via = Listing::tag_schema;
    out.tag = referrers_tag(image.digest);
    ENVLOCK_TRY_ASSIGN(const auto found, client.find_manifest(image, out.tag));
    if (found) {
      if (auto read = read_tag_index(found->body, found->media_type, out.tag)) {
        index = std::move(*read);
      }
    }
  }
  const oci::ReferrersLimits limits;
  if (index["manifests"].size() > limits.entries) {
    return env_error(image.to_string() + ": tag " + out.tag +
                     ": the referrers listing is over its limit of " +
                     std::to_string(limits.entries) + " entries (docs/manual/attest.md)");
  }
  std::set<std::string> seen; // each artifact listed, and so fetched, once
  for (const auto& descriptor : index["manifests"]) {
    if (!descriptor.is_object()) {
      continue;
    }
    Listed listed = listed_of(descriptor);
    if (oci::is_valid_digest(listed.digest) && (!kind || listed.kind == kind) &&
        seen.insert(listed.digest).second) {
      out.referrers.push_back(std::move(listed));
    }
  }
  return out;
}

Result<Fetched> fetch_attestation(oci::RegistryClient& client, const oci::ImageRef& image,
                                  const Listed& listed) {
  ENVLOCK_TRY_ASSIGN(const oci::ManifestResponse manifest,
                     client.get_manifest(image, listed.digest));
  const json doc = json::parse(manifest.body, nullptr, /*allow_exceptions=*/false);
  const std::string what = "artifact " + listed.digest;
  if (!doc.is_object() || !doc.contains("layers") || !doc["layers"].is_array() ||
      doc["layers"].size() != 1 || !doc["layers"][0].is_object()) {
    return input_error(what + ": not an artifact manifest with one layer");
  }
  const json& layer = doc["layers"][0];
  const std::string digest = listed_text(layer, "digest");
  std::optional<std::uint64_t> size;
  if (layer.contains("size") && layer["size"].is_number_unsigned()) {
    size = layer["size"].get<std::uint64_t>();
  }
  if (!size || *size > k_attestation_limit) {
    return input_error(what + ": its layer gives no size, or more than " +
                       std::to_string(k_attestation_limit) + " bytes");
  }
  Fetched out;
  out.listed = listed;
  if (layer.contains("annotations") && layer["annotations"].is_object()) {
    out.title = listed_text(layer["annotations"], k_title_annotation);
  }
  ENVLOCK_TRY(client.fetch_blob(image, digest, size, [&](std::string_view chunk) -> Status {
    out.bytes.append(chunk);
    return {};
  }));
  return out;
}

} // namespace envlock::attest
