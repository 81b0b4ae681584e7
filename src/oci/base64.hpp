// Base64 (RFC 4648, with padding) for HTTP basic credentials and Docker's config.json "auth".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace envlock::oci {

// The Base64 form of `data`.
std::string base64_encode(std::string_view data);

// The bytes encoded by `text` (white space ignored), or nothing when it is not valid Base64.
std::optional<std::string> base64_decode(std::string_view text);

} // namespace envlock::oci
