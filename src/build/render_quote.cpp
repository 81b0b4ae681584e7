#include "build/render_quote.hpp"

#include "util/shell_quote.hpp"

namespace envlock::build {

namespace {

constexpr const char* k_line_break = "contains a line break, which a Dockerfile line cannot hold";

bool has_line_break(std::string_view text) {
  return text.find_first_of("\r\n") != std::string_view::npos;
}

} // namespace

Result<std::string> shell_word(std::string_view word) {
  if (has_line_break(word)) {
    return input_error(k_line_break);
  }
  return util::shell_quote(word, util::QuoteWhen::needed);
}

Result<std::string> shell_join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) {
    ENVLOCK_TRY_ASSIGN(const std::string quoted, shell_word(word));
    out += out.empty() ? quoted : " " + quoted;
  }
  return out;
}

Result<std::string> dockerfile_quote(std::string_view value) {
  if (has_line_break(value)) {
    return input_error(k_line_break);
  }
  std::string out = "\"";
  for (const char c : value) {
    if (c == '\\' || c == '"' || c == '$') {
      out += '\\';
    }
    out += c;
  }
  return out + "\"";
}

} // namespace envlock::build
