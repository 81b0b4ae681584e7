#include "util/shell_quote.hpp"

#include <algorithm>

namespace envlock::util {

namespace {

bool is_shell_safe(char c) {
  const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  return alnum || std::string_view("_./=:,+@%-").find(c) != std::string_view::npos;
}

} // namespace

std::string shell_quote(std::string_view word, QuoteWhen when) {
  if (when == QuoteWhen::needed && !word.empty() &&
      std::all_of(word.begin(), word.end(), is_shell_safe)) {
    return std::string(word);
  }
  std::string out = "'";
  for (const char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

} // namespace envlock::util
