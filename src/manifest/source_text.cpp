#include "manifest/source_text.hpp"

#include <cstddef>

namespace envlock::manifest {

Error SourceText::error_at(Location where, std::string_view message) const {
  if (where.line < 0) {
    return input_error(m_filename + ": " + m_secrets.scrub(message));
  }
  const int column = where.column < 0 ? 0 : where.column;
  std::string out = m_filename + ":" + std::to_string(where.line + 1) + ":" +
                    std::to_string(column + 1) + ": " + m_secrets.scrub(message);
  const std::string line = mask_url_credentials(line_text(where.line));
  if (line.empty()) {
    return input_error(std::move(out));
  }
  if (m_secrets.found_in(line_text(where.line))) {
    return input_error(out + "\n" + k_secret_line_hidden);
  }
  // The caret line repeats the tabs of the source line so that the caret lands under the column.
  std::string caret;
  for (std::size_t i = 0; i < static_cast<std::size_t>(column); ++i) {
    caret += i < line.size() && line[i] == '\t' ? '\t' : ' ';
  }
  caret += '^';
  out += "\n" + line + "\n" + caret;
  return input_error(std::move(out));
}

std::string_view SourceText::line_text(int line) const {
  std::size_t start = 0;
  for (int i = 0; i < line; ++i) {
    const std::size_t next = m_text.find('\n', start);
    if (next == std::string_view::npos) {
      return {};
    }
    start = next + 1;
  }
  if (start > m_text.size()) {
    return {};
  }
  std::string_view rest = m_text.substr(start);
  rest = rest.substr(0, rest.find('\n'));
  if (!rest.empty() && rest.back() == '\r') {
    rest.remove_suffix(1);
  }
  return rest;
}

std::string mask_url_credentials(std::string_view line) {
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t scheme_end = line.find("://", pos);
    if (scheme_end == std::string_view::npos) {
      out += line.substr(pos);
      return out;
    }
    const std::size_t authority = scheme_end + 3;
    out += line.substr(pos, authority - pos);
    // The authority ends at the first '/', white space or quote; userinfo ends at its last '@'.
    const std::size_t end = line.find_first_of("/ \t\"'", authority);
    const std::string_view host_part = line.substr(
        authority, end == std::string_view::npos ? std::string_view::npos : end - authority);
    const std::size_t at = host_part.rfind('@');
    if (at != std::string_view::npos) {
      out += "***";
      pos = authority + at;
    } else {
      pos = authority;
    }
  }
}

} // namespace envlock::manifest
