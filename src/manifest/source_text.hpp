// The manifest's text as a source of error messages: "FILE:LINE:COL: message", then the offending
// source line and a caret under the column, as compilers print them.
#pragma once

#include "util/result.hpp"
#include "util/secret_values.hpp"

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
  // `secrets`: the values no message may show (oci::known_secrets() where the text is a file).
  SourceText(std::string_view text, std::string filename, util::SecretValues secrets = {})
      : m_text(text), m_filename(std::move(filename)), m_secrets(std::move(secrets)) {}

  [[nodiscard]] std::string_view text() const { return m_text; }
  [[nodiscard]] const std::string& filename() const { return m_filename; }

  // An input error (exit 2): "FILE:LINE:COL: message" with the source line and a caret, or
  // "FILE: message" when `where` has no position. Credentials in URLs of the line are masked; a
  // line that holds one of the secrets is not shown (k_secret_line_hidden instead), and the
  // secrets are scrubbed from the message.
  [[nodiscard]] Error error_at(Location where, std::string_view message) const;

  // The line at 0-based `line`, without its line break; empty when there is no such line.
  [[nodiscard]] std::string_view line_text(int line) const;

private:
  std::string_view m_text;
  std::string m_filename;
  util::SecretValues m_secrets;
};

// What stands in an error for a source line that holds a secret.
inline constexpr const char* k_secret_line_hidden =
    "(line not shown: it holds a password or token)";

// `line` with the user:password part of every "scheme://user:password@host" replaced by "***".
std::string mask_url_credentials(std::string_view line);

} // namespace envlock::manifest
