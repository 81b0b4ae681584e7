// Platforms ("linux/amd64", "linux/arm64/v8") and picking an image index's entry for one.
#pragma once

#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace envlock::oci {

struct Platform {
  std::string os;
  std::string architecture;
  std::string variant; // empty: any
  // os/architecture[/variant]
  [[nodiscard]] std::string to_string() const;
  bool operator==(const Platform&) const = default;
};

// The platform envlock locks and squashes for when none is named.
inline constexpr const char* k_default_platform = "linux/amd64";

// Parses OS/ARCH[/VARIANT]; an input error "invalid platform 'X': expected OS/ARCH[/VARIANT]".
Result<Platform> parse_platform(std::string_view text);

// True when an image for `offered` runs as `wanted`: same os and architecture, and the same
// variant when `wanted` names one (arm64 without a variant counts as v8).
bool platform_matches(const Platform& wanted, const Platform& offered);

struct IndexEntry {
  std::string digest;
  std::string media_type;
};

// The first entry of an OCI index / Docker manifest list whose platform matches. An input error
// when the document is malformed, or when no entry matches:
// "no manifest for linux/s390x in IMAGE (available: linux/amd64, linux/arm64/v8)".
Result<IndexEntry> select_platform(const nlohmann::json& index, const Platform& wanted,
                                   std::string_view image);

} // namespace envlock::oci
