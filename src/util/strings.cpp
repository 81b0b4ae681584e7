#include "util/strings.hpp"

#include <algorithm>
#include <cctype>

namespace envlock::util {

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t pos = text.find(sep, start);
    if (pos == std::string_view::npos) {
      out.emplace_back(text.substr(start));
      return out;
    }
    out.emplace_back(text.substr(start, pos - start));
    start = pos + 1;
  }
}

std::string_view trim(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && space(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && space(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

std::string to_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += sep;
    }
    out += parts[i];
  }
  return out;
}

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) {
    return text;
  }
  std::size_t pos = 0;
  while ((pos = text.find(from, pos)) != std::string::npos) {
    text.replace(pos, from.size(), to);
    pos += to.size();
  }
  return text;
}

bool is_hex(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
}

std::string percent_encode(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
      out += c;
    } else {
      constexpr std::string_view k_hex = "0123456789ABCDEF";
      out += '%';
      out += k_hex[u >> 4U];
      out += k_hex[u & 15U];
    }
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance: insertions, deletions, substitutions and transpositions
  // of neighbours each cost 1, so "imgae" is one edit from "image".
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) {
    d[i][0] = i;
  }
  for (std::size_t j = 0; j <= m; ++j) {
    d[0][j] = j;
  }
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[n][m];
}

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (!best || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  // Close enough: at most a third of the longer word, and at least one edit allowed.
  const std::size_t limit =
      std::max<std::size_t>(1, std::max(word.size(), best ? best->size() : 0) / 3);
  if (best && best_distance <= limit) {
    return best;
  }
  return std::nullopt;
}

std::optional<Utf8Char> decode_utf8(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  if (at >= text.size()) {
    return std::nullopt;
  }
  const unsigned lead = byte(at);
  if (lead < 0x80) {
    return Utf8Char{lead, 1};
  }
  std::size_t length = 0;
  unsigned low = 0x80; // the allowed range of the second byte (RFC 3629 table)
  unsigned high = 0xBF;
  char32_t code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code = lead & 0x1FU;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    low = lead == 0xE0 ? 0xA0 : 0x80;
    high = lead == 0xED ? 0x9F : 0xBF;
    code = lead & 0x0FU;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    low = lead == 0xF0 ? 0x90 : 0x80;
    high = lead == 0xF4 ? 0x8F : 0xBF;
    code = lead & 0x07U;
  } else {
    return std::nullopt;
  }
  if (at + length > text.size() || byte(at + 1) < low || byte(at + 1) > high) {
    return std::nullopt;
  }
  for (std::size_t k = 1; k < length; ++k) {
    if (byte(at + k) < 0x80 || byte(at + k) > 0xBF) {
      return std::nullopt;
    }
    code = (code << 6U) | (byte(at + k) & 0x3FU);
  }
  return Utf8Char{code, length};
}

std::optional<std::size_t> invalid_utf8_at(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = decode_utf8(text, i);
    if (!c) {
      return i;
    }
    i += c->length;
  }
  return std::nullopt;
}

std::string escape_invalid_utf8(std::string_view text) {
  if (!invalid_utf8_at(text)) {
    return std::string(text);
  }
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() + 16);
  std::size_t i = 0;
  while (i < text.size()) {
    if (const auto c = decode_utf8(text, i)) {
      out.append(text.substr(i, c->length));
      i += c->length;
      continue;
    }
    const auto byte = static_cast<unsigned char>(text[i]);
    out += "\\x";
    out += k_hex[byte >> 4U];
    out += k_hex[byte & 15U];
    ++i;
  }
  return out;
}

} // namespace envlock::util
