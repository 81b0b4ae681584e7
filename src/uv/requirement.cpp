#include "uv/requirement.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <cctype>

namespace envlock::uv {

namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

Error bad(std::string_view text, std::string_view reason) {
  return input_error("'" + std::string(text) +
                     "' is not a PEP 508 requirement: " + std::string(reason));
}

} // namespace

std::string normalize_name(std::string_view name) {
  std::string out;
  bool separator = false;
  for (const char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      separator = true;
      continue;
    }
    if (separator && !out.empty()) {
      out += '-';
    }
    separator = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

Result<Requirement> parse_requirement(std::string_view text) {
  Requirement out;
  std::string_view rest = trimmed(text);
  if (const auto semicolon = rest.find(';'); semicolon != std::string_view::npos) {
    out.marker = std::string(trimmed(rest.substr(semicolon + 1)));
    rest = trimmed(rest.substr(0, semicolon));
    if (out.marker.empty()) {
      return bad(text, "an empty marker after ';'");
    }
  }
  std::size_t end = 0;
  while (end < rest.size() && name_char(rest[end])) {
    ++end;
  }
  if (end == 0 || std::isalnum(static_cast<unsigned char>(rest.front())) == 0) {
    return bad(text, "no package name");
  }
  out.name = normalize_name(rest.substr(0, end));
  rest = trimmed(rest.substr(end));
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) {
      return bad(text, "'[' without ']'");
    }
    for (const auto& extra : util::split(rest.substr(1, close - 1), ',')) {
      const auto name = trimmed(extra);
      if (name.empty() || !std::all_of(name.begin(), name.end(), name_char)) {
        return bad(text, "an extra that is not a name");
      }
      out.extras.push_back(normalize_name(name));
    }
    std::sort(out.extras.begin(), out.extras.end());
    out.extras.erase(std::unique(out.extras.begin(), out.extras.end()), out.extras.end());
    rest = trimmed(rest.substr(close + 1));
  }
  if (!rest.empty() && rest.front() == '@') {
    out.url = std::string(trimmed(rest.substr(1)));
    if (out.url.empty()) {
      return bad(text, "no URL after '@'");
    }
    return out;
  }
  if (!rest.empty() && rest.front() == '(') {
    if (rest.back() != ')') {
      return bad(text, "'(' without ')'");
    }
    rest = trimmed(rest.substr(1, rest.size() - 2));
  }
  auto specifiers = parse_specifiers(rest);
  if (!specifiers) {
    return bad(text, specifiers.error().message);
  }
  out.specifiers = std::move(*specifiers);
  return out;
}

} // namespace envlock::uv
