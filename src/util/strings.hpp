// Small string helpers that know nothing about envlock's types.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::util {

// Splits on every `sep`; empty fields are kept.
std::vector<std::string> split(std::string_view text, char sep);
// Removes ASCII white space at both ends.
std::string_view trim(std::string_view text);
std::string to_lower(std::string_view text);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// Replaces every occurrence of `from` by `to`.
std::string replace_all(std::string text, std::string_view from, std::string_view to);
bool is_hex(std::string_view text);
// Percent-encodes every byte but ASCII letters, digits and "-_.~" (RFC 3986 unreserved), as
// for a URL query value.
std::string percent_encode(std::string_view text);

// Levenshtein distance.
std::size_t edit_distance(std::string_view a, std::string_view b);
// One character decoded from UTF-8: its code point and how many bytes it took.
struct Utf8Char {
  char32_t code_point = 0;
  std::size_t length = 0;
};

// The well-formed UTF-8 character starting at byte `at`; nothing when the bytes there are not one
// (a stray continuation byte, an overlong form, a surrogate, above U+10FFFF, cut short).
std::optional<Utf8Char> decode_utf8(std::string_view text, std::size_t at);

// The offset of the first byte that does not belong to a well-formed UTF-8 sequence (overlong
// forms, surrogates and code points above U+10FFFF are not well-formed); nothing when all are.
std::optional<std::size_t> invalid_utf8_at(std::string_view text);

// `text` with every byte that is not part of a well-formed UTF-8 character written as "\xNN"
// (two lowercase hex digits); well-formed text as it is.
std::string escape_invalid_utf8(std::string_view text);

// The candidate closest to `word` when it is close enough to be a likely typo, for
// "did you mean 'X'?" messages.
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates);

} // namespace envlock::util
