#include "oci/platform.hpp"

#include "oci/image_ref.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <vector>

namespace envlock::oci {

namespace {

std::string normal_variant(const Platform& platform) {
  if (platform.architecture == "arm64" && platform.variant.empty()) {
    return "v8";
  }
  return platform.variant;
}

std::string string_field(const nlohmann::json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

std::string Platform::to_string() const {
  std::string out = os + "/" + architecture;
  if (!variant.empty()) {
    out += "/" + variant;
  }
  return out;
}

Result<Platform> parse_platform(std::string_view text) {
  const auto parts = util::split(text, '/');
  const bool has_empty =
      std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); });
  if (parts.size() < 2 || parts.size() > 3 || has_empty) {
    return input_error("invalid platform '" + std::string(text) + "': expected OS/ARCH[/VARIANT]");
  }
  return Platform{parts[0], parts[1], parts.size() == 3 ? parts[2] : std::string()};
}

bool platform_matches(const Platform& wanted, const Platform& offered) {
  if (wanted.os != offered.os || wanted.architecture != offered.architecture) {
    return false;
  }
  return wanted.variant.empty() || normal_variant(wanted) == normal_variant(offered);
}

Result<IndexEntry> select_platform(const nlohmann::json& index, const Platform& wanted,
                                   std::string_view image) {
  const auto manifests = index.find("manifests");
  if (manifests == index.end() || !manifests->is_array()) {
    return input_error("image index of " + std::string(image) + " has no \"manifests\" list");
  }
  std::vector<std::string> available;
  for (const auto& entry : *manifests) {
    if (!entry.is_object()) {
      continue;
    }
    const auto platform = entry.find("platform");
    if (platform == entry.end() || !platform->is_object()) {
      continue;
    }
    const Platform offered{string_field(*platform, "os"), string_field(*platform, "architecture"),
                           string_field(*platform, "variant")};
    if (!platform_matches(wanted, offered)) {
      available.push_back(offered.to_string());
      continue;
    }
    IndexEntry chosen{string_field(entry, "digest"), string_field(entry, "mediaType")};
    if (!is_valid_digest(chosen.digest)) {
      return input_error("image index of " + std::string(image) + ": entry for " +
                         offered.to_string() + " has an invalid digest");
    }
    return chosen;
  }
  return input_error("no manifest for " + wanted.to_string() + " in " + std::string(image) +
                     " (available: " + (available.empty() ? "none" : util::join(available, ", ")) +
                     ")");
}

} // namespace envlock::oci
