#include "uv/toml_cursor.hpp"

#include <cctype>

namespace envlock::uv {

namespace {

bool is_bare_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

} // namespace

void TomlCursor::skip_blank() {
  while (!at_end() && (peek() == ' ' || peek() == '\t')) {
    ++m_pos;
  }
}

bool TomlCursor::end_of_line() {
  skip_blank();
  if (peek() == '#') {
    // A comment ends at a line break; a carriage return must be part of one (checked below).
    while (!at_end() && peek() != '\n' && peek() != '\r') {
      const auto c = static_cast<unsigned char>(peek());
      if ((c < 0x20 && c != '\t') || c >= 0x7f) {
        return false;
      }
      ++m_pos;
    }
  }
  if (peek() == '\r') {
    ++m_pos;
    if (peek() != '\n') {
      return false;
    }
  }
  if (at_end()) {
    return true;
  }
  if (peek() != '\n') {
    return false;
  }
  ++m_pos;
  return true;
}

bool TomlCursor::skip_array_space() {
  for (;;) {
    skip_blank();
    const char c = peek();
    if (c == '\n' || c == '\r' || c == '#') {
      if (!end_of_line()) {
        return false;
      }
    } else {
      return !at_end();
    }
  }
}

std::string_view TomlCursor::read_bare_key() {
  const std::size_t start = m_pos;
  while (!at_end() && is_bare_key_char(peek())) {
    ++m_pos;
  }
  return m_text.substr(start, m_pos - start);
}

std::string_view TomlCursor::read_dotted_key() {
  const std::size_t start = m_pos;
  while (!at_end() && (is_bare_key_char(peek()) || peek() == '.')) {
    ++m_pos;
  }
  const std::string_view path = m_text.substr(start, m_pos - start);
  if (path.empty() || path.front() == '.' || path.back() == '.' ||
      path.find("..") != std::string_view::npos) {
    return {};
  }
  return path;
}

bool TomlCursor::ends_value() const {
  const char c = peek();
  return at_end() || c == ' ' || c == '\t' || c == ',' || c == ']' || c == '}' || c == '#' ||
         c == '\n' || c == '\r';
}

bool TomlCursor::read_string(std::string_view& text, bool& escaped) {
  const char quote = peek();
  if (peek(1) == quote && peek(2) == quote) {
    return false; // multi-line string
  }
  ++m_pos;
  const std::size_t start = m_pos;
  for (;;) {
    if (at_end()) {
      return false;
    }
    const auto c = static_cast<unsigned char>(peek());
    if ((c < 0x20 && c != '\t') || c >= 0x7f) {
      return false;
    }
    if (c == static_cast<unsigned char>(quote)) {
      break;
    }
    if (c == '\\' && quote == '"') {
      escaped = true;
      if (!skip_escape()) {
        return false;
      }
      continue;
    }
    ++m_pos;
  }
  text = m_text.substr(start, m_pos - start);
  ++m_pos;
  return true;
}

bool TomlCursor::skip_escape() {
  const char e = peek(1);
  std::size_t hex = 0;
  if (e == 'u') {
    hex = 4;
  } else if (e == 'U') {
    hex = 8;
  } else if (std::string_view("btnfr\"\\").find(e) == std::string_view::npos || e == '\0') {
    return false;
  }
  m_pos += 2;
  for (std::size_t i = 0; i < hex; ++i, ++m_pos) {
    if (!std::isxdigit(static_cast<unsigned char>(peek()))) {
      return false;
    }
  }
  return true;
}

bool TomlCursor::read_int(std::int64_t& value) {
  const std::size_t start = m_pos;
  if (peek() == '+' || peek() == '-') {
    ++m_pos;
  }
  const std::size_t digits = m_pos;
  while (is_digit(peek())) {
    ++m_pos;
  }
  const std::size_t count = m_pos - digits;
  if (count == 0 || count > 18 || (count > 1 && m_text[digits] == '0') || !ends_value()) {
    return false;
  }
  value = 0;
  for (std::size_t i = digits; i < m_pos; ++i) {
    value = value * 10 + (m_text[i] - '0');
  }
  if (m_text[start] == '-') {
    value = -value;
  }
  return true;
}

} // namespace envlock::uv
