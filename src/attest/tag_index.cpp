#include "attest/tag_index.hpp"

#include "util/json.hpp"

namespace envlock::attest {

using nlohmann::json;

namespace {

constexpr std::size_t k_truncated_algorithm = 32;
constexpr std::size_t k_truncated_encoded = 64;
constexpr const char* k_index_media_type = "application/vnd.oci.image.index.v1+json";

bool tag_character(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

} // namespace

std::string referrers_tag(std::string_view digest) {
  const auto colon = digest.find(':');
  const std::string_view algorithm = digest.substr(0, colon);
  const std::string_view encoded =
      colon == std::string_view::npos ? std::string_view() : digest.substr(colon + 1);
  std::string tag = std::string(algorithm.substr(0, k_truncated_algorithm)) + "-" +
                    std::string(encoded.substr(0, k_truncated_encoded));
  for (char& c : tag) {
    if (!tag_character(c)) {
      c = '-';
    }
  }
  return tag;
}

Result<json> read_tag_index(std::string_view body, std::string_view media_type,
                            const std::string& origin) {
  const json doc = json::parse(body, nullptr, /*allow_exceptions=*/false);
  const std::string type =
      media_type.substr(0, media_type.find(';')) == k_index_media_type
          ? std::string(k_index_media_type)
      : doc.is_object() && doc.contains("mediaType") && doc["mediaType"].is_string()
          ? doc["mediaType"].get<std::string>()
          : std::string(media_type);
  if (type != k_index_media_type || !doc.is_object() || !doc.contains("manifests") ||
      !doc["manifests"].is_array()) {
    return input_error(origin + " holds a '" + type +
                       "', not an image index of referrers; it is left as it is");
  }
  return doc;
}

json empty_index() {
  return {{"schemaVersion", 2}, {"mediaType", k_index_media_type}, {"manifests", json::array()}};
}

bool index_lists(const json& index, std::string_view digest) {
  for (const auto& entry : index["manifests"]) {
    if (entry.is_object() && entry.contains("digest") && entry["digest"] == digest) {
      return true;
    }
  }
  return false;
}

json with_descriptor(json index, const json& descriptor) {
  if (!index_lists(index, descriptor["digest"].get<std::string>())) {
    index["manifests"].push_back(descriptor);
  }
  return index;
}

std::string index_bytes(const json& index) {
  return util::canonical_json(index);
}

} // namespace envlock::attest
