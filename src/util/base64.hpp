// Base64 (RFC 4648 section 4, the standard alphabet with '=' padding): strict for signed envelopes,
// where every encoded text must have exactly one decoding and every decoding exactly one text;
// lenient for what other tools write (HTTP basic credentials, Docker's config.json "auth").
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

// The bytes of `text` as Docker and HTTP clients accept it: white space is skipped, the '='
// padding may be missing (but never stands before a symbol, nor more than two), and unused bits
// may be set. Nothing when it is not Base64 even so.
std::optional<std::string> base64_decode_lenient(std::string_view text);

} // namespace envlock::util
