#include "oci/base64.hpp"

#include <cstdint>

namespace envlock::oci {

namespace {

constexpr std::string_view k_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int value_of(char c) {
  const std::size_t pos = k_alphabet.find(c);
  return pos == std::string_view::npos ? -1 : static_cast<int>(pos);
}

} // namespace

std::string base64_encode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < data.size(); i += 3) {
    const std::uint32_t n = (static_cast<std::uint8_t>(data[i]) << 16U) |
                            (static_cast<std::uint8_t>(data[i + 1]) << 8U) |
                            static_cast<std::uint8_t>(data[i + 2]);
    out += k_alphabet[(n >> 18U) & 63U];
    out += k_alphabet[(n >> 12U) & 63U];
    out += k_alphabet[(n >> 6U) & 63U];
    out += k_alphabet[n & 63U];
  }
  const std::size_t left = data.size() - i;
  if (left > 0) {
    std::uint32_t n = static_cast<std::uint8_t>(data[i]) << 16U;
    if (left == 2) {
      n |= static_cast<std::uint8_t>(data[i + 1]) << 8U;
    }
    out += k_alphabet[(n >> 18U) & 63U];
    out += k_alphabet[(n >> 12U) & 63U];
    out += left == 2 ? k_alphabet[(n >> 6U) & 63U] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  std::string out;
  std::uint32_t bits = 0;
  int count = 0;
  int padding = 0;
  for (const char c : text) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      continue;
    }
    if (c == '=') {
      ++padding;
      continue;
    }
    const int v = value_of(c);
    if (v < 0 || padding > 0) {
      return std::nullopt;
    }
    bits = (bits << 6U) | static_cast<std::uint32_t>(v);
    if (++count == 4) {
      out += static_cast<char>((bits >> 16U) & 255U);
      out += static_cast<char>((bits >> 8U) & 255U);
      out += static_cast<char>(bits & 255U);
      bits = 0;
      count = 0;
    }
  }
  if (count == 1 || padding > 2) {
    return std::nullopt;
  }
  if (count == 2) {
    out += static_cast<char>((bits >> 4U) & 255U);
  } else if (count == 3) {
    out += static_cast<char>((bits >> 10U) & 255U);
    out += static_cast<char>((bits >> 2U) & 255U);
  }
  return out;
}

} // namespace envlock::oci
