#include "squashfs/bash_quote.hpp"

#include "squashfs/printable_table.hpp"
#include "util/shell_quote.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>

namespace envlock::squashfs {

namespace {

bool is_printable(char32_t code_point) {
  const auto ranges = printable_ranges();
  const auto it =
      std::upper_bound(ranges.begin(), ranges.end(), code_point,
                       [](char32_t cp, const PrintableRange& range) { return cp < range.first; });
  return it != ranges.begin() && code_point <= std::prev(it)->last;
}

// The length of the printable character at `at` that may stay as it is; nothing when the byte
// there must be escaped.
std::optional<std::size_t> printable_at(std::string_view word, std::size_t at,
                                        lock::EnrootLocale locale) {
  const auto byte = static_cast<unsigned char>(word[at]);
  if (byte < 0x80 || locale == lock::EnrootLocale::c) {
    return byte >= 0x20 && byte < 0x7f ? std::optional<std::size_t>(1) : std::nullopt;
  }
  const auto c = util::decode_utf8(word, at);
  if (!c || !is_printable(c->code_point)) {
    return std::nullopt;
  }
  return c->length;
}

bool needs_ansi_c_quoting(std::string_view word, lock::EnrootLocale locale) {
  for (std::size_t i = 0; i < word.size();) {
    const auto length = printable_at(word, i, locale);
    if (!length) {
      return true;
    }
    i += *length;
  }
  return false;
}

// The escape for a byte that has a letter form, or nothing.
const char* letter_escape(char c) {
  switch (c) {
  case '\a':
    return "\\a";
  case '\b':
    return "\\b";
  case '\x1b':
    return "\\E";
  case '\f':
    return "\\f";
  case '\n':
    return "\\n";
  case '\r':
    return "\\r";
  case '\t':
    return "\\t";
  case '\v':
    return "\\v";
  case '\\':
    return "\\\\";
  case '\'':
    return "\\'";
  default:
    return nullptr;
  }
}

std::string ansi_c_quote(std::string_view word, lock::EnrootLocale locale) {
  std::string out = "$'";
  for (std::size_t i = 0; i < word.size();) {
    if (const char* escape = letter_escape(word[i])) {
      out += escape;
      ++i;
    } else if (const auto length = printable_at(word, i, locale)) {
      out += word.substr(i, *length);
      i += *length;
    } else {
      // One byte at a time: the bytes after it are looked at afresh, as bash does.
      std::array<char, 8> buf{};
      (void)std::snprintf(buf.data(), buf.size(), "\\%03o",
                          static_cast<unsigned>(static_cast<unsigned char>(word[i])));
      out += buf.data();
      ++i;
    }
  }
  return out + "'";
}

} // namespace

std::string bash_quote(std::string_view word, lock::EnrootLocale locale) {
  if (needs_ansi_c_quoting(word, locale)) {
    return ansi_c_quote(word, locale);
  }
  return util::shell_quote(word);
}

} // namespace envlock::squashfs
