#include "util/base64.hpp"

#include <array>
#include <cstdint>

namespace envlock::util {

namespace {

constexpr std::string_view k_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The 6-bit value of each byte, or -1 for bytes outside the alphabet.
constexpr std::array<int, 256> k_values = [] {
  std::array<int, 256> values{};
  values.fill(-1);
  for (std::size_t i = 0; i < k_alphabet.size(); ++i) {
    values[static_cast<unsigned char>(k_alphabet[i])] = static_cast<int>(i);
  }
  return values;
}();

char symbol(std::uint32_t bits) {
  return k_alphabet[bits & 63U];
}

} // namespace

std::string base64_encode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{static_cast<std::uint8_t>(data[i])} << 16U) |
                            (std::uint32_t{static_cast<std::uint8_t>(data[i + 1])} << 8U) |
                            std::uint32_t{static_cast<std::uint8_t>(data[i + 2])};
    out += {symbol(n >> 18U), symbol(n >> 12U), symbol(n >> 6U), symbol(n)};
  }
  const std::size_t left = data.size() - i;
  if (left == 1) {
    const std::uint32_t n = std::uint32_t{static_cast<std::uint8_t>(data[i])} << 16U;
    out += {symbol(n >> 18U), symbol(n >> 12U), '=', '='};
  } else if (left == 2) {
    const std::uint32_t n = (std::uint32_t{static_cast<std::uint8_t>(data[i])} << 16U) |
                            (std::uint32_t{static_cast<std::uint8_t>(data[i + 1])} << 8U);
    out += {symbol(n >> 18U), symbol(n >> 12U), symbol(n >> 6U), '='};
  }
  return out;
}

namespace {

enum class UnusedBits { must_be_zero, may_be_set };

std::optional<std::string> decode(std::string_view text, UnusedBits unused) {
  if (text.size() % 4 != 0) {
    return std::nullopt;
  }
  std::size_t padding = 0;
  if (!text.empty() && text.back() == '=') {
    padding = text[text.size() - 2] == '=' ? 2 : 1;
  }
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const std::size_t symbols = last ? 4 - padding : 4;
    std::uint32_t n = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      int v = 0;
      if (k < symbols) {
        v = k_values[static_cast<unsigned char>(text[i + k])];
        if (v < 0) {
          return std::nullopt;
        }
      }
      n = (n << 6U) | static_cast<std::uint32_t>(v);
    }
    const std::size_t bytes = symbols - 1;
    // The bits below the last whole byte must be zero, or two texts would decode alike.
    if (unused == UnusedBits::must_be_zero && bytes < 3 &&
        (n & ((1U << (8U * (3U - bytes))) - 1U)) != 0) {
      return std::nullopt;
    }
    for (std::size_t b = 0; b < bytes; ++b) {
      out += static_cast<char>((n >> (16U - 8U * b)) & 255U);
    }
  }
  return out;
}

} // namespace

std::optional<std::string> base64_decode_strict(std::string_view text) {
  return decode(text, UnusedBits::must_be_zero);
}

std::optional<std::string> base64_decode_lenient(std::string_view text) {
  std::string symbols;
  std::size_t padding = 0;
  for (const char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      continue;
    }
    if (c == '=') {
      ++padding;
    } else if (padding > 0) {
      return std::nullopt; // a symbol after the padding
    } else {
      symbols += c;
    }
  }
  if (padding > 2 || symbols.size() % 4 == 1) {
    return std::nullopt;
  }
  symbols.append((4 - symbols.size() % 4) % 4, '=');
  return decode(symbols, UnusedBits::may_be_set);
}

} // namespace envlock::util
