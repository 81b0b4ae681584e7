// The manifest's text as a source of error messages: "FILE:LINE:COL: message", then the offending
// source line and a caret under the column, as compilers print them.
#pragma once

#include "util/result.hpp"

#include <string>
#include <string_view>
#include <utility>

namespace envlock::manifest {

// A position in the text, 0-based as yaml-cpp counts; a negative line means "no position".
struct Location {
  int line = -1;
  int column = -1;
};

class SourceText {
public:
  SourceText(std::string_view text, std::string filename)
      : m_text(text), m_filename(std::move(filename)) {}

  [[nodiscard]] std::string_view text() const { return m_text; }
  [[nodiscard]] const std::string& filename() const { return m_filename; }

  // An input error (exit 2): "FILE:LINE:COL: message" with the source line and a caret, or
  // "FILE: message" when `where` has no position. Credentials in URLs of the line are masked.
  [[nodiscard]] Error error_at(Location where, std::string_view message) const;

  // The line at 0-based `line`, without its line break; empty when there is no such line.
  [[nodiscard]] std::string_view line_text(int line) const;

private:
  std::string_view m_text;
  std::string m_filename;
};

// `line` with the user:password part of every "scheme://user:password@host" replaced by "***".
std::string mask_url_credentials(std::string_view line);

} // namespace envlock::manifest
