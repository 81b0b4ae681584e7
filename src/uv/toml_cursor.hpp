// The lexical half of the fast uv.lock reader: a position in TOML text and the tokens of the
// subset uv writes. Every read returns false, rather than guess, on anything outside the subset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace envlock::uv {

class TomlCursor {
public:
  explicit TomlCursor(std::string_view text) : m_text(text) {}

protected:
  [[nodiscard]] bool at_end() const { return m_pos >= m_text.size(); }
  [[nodiscard]] char peek(std::size_t ahead = 0) const {
    return m_pos + ahead < m_text.size() ? m_text[m_pos + ahead] : '\0';
  }
  // Skips spaces and tabs.
  void skip_blank();
  // An optional comment, then a line end or the end of the text.
  bool end_of_line();
  // Skips blanks, line ends and comments inside an array; false at the end of the text.
  bool skip_array_space();
  // A bare key ([A-Za-z0-9_-]+); empty when there is none.
  std::string_view read_bare_key();
  // Bare keys joined by dots, without blanks ("package.metadata"); empty when malformed.
  std::string_view read_dotted_key();
  // True when a value ends here: blanks, a separator, a comment or the line end.
  [[nodiscard]] bool ends_value() const;
  // A one-line basic or literal string; `text` is its raw content (escapes checked, not decoded;
  // `escaped` is set when it has any).
  bool read_string(std::string_view& text, bool& escaped);
  // A decimal integer of at most 18 digits without underscores.
  bool read_int(std::int64_t& value);

  std::string_view m_text;
  std::size_t m_pos = 0;

private:
  bool skip_escape();
};

} // namespace envlock::uv
