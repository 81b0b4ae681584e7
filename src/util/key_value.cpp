#include "util/key_value.hpp"

#include "util/strings.hpp"

namespace envlock::util {

void for_each_key_value(std::string_view text,
                        const std::function<void(std::string_view, std::string_view)>& line) {
  for (const auto& raw : split(text, '\n')) {
    const std::string_view trimmed = trim(raw);
    const auto eq = trimmed.find('=');
    if (trimmed.empty() || trimmed.front() == '#' || eq == std::string_view::npos) {
      continue;
    }
    line(trim(trimmed.substr(0, eq)), trimmed.substr(eq + 1));
  }
}

std::string_view unquote(std::string_view value) {
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
      value.back() == value.front()) {
    return value.substr(1, value.size() - 2);
  }
  return value;
}

} // namespace envlock::util
