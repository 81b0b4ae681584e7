// Base64 (RFC 4648 section 4, the standard alphabet with '=' padding) for signed envelopes, where
// every encoded text must have exactly one decoding and every decoding exactly one text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace envlock::util {

// The padded Base64 text of `data`.
std::string base64_encode(std::string_view data);

// The bytes of `text`, or nothing unless `text` is exactly what base64_encode writes for them: a
// multiple of 4 characters of the standard alphabet, '=' only as the final padding, and zero
// bits where the padding leaves some unused. No white space is skipped.
std::optional<std::string> base64_decode_strict(std::string_view text);

} // namespace envlock::util
