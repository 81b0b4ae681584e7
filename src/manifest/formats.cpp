#include "manifest/formats.hpp"

#include "oci/image_ref.hpp"
#include "util/strings.hpp"

#include <cstddef>

namespace envlock::manifest {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_lower_alnum(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z');
}
bool is_alnum(char c) {
  return is_lower_alnum(c) || (c >= 'A' && c <= 'Z');
}

bool all_digits(std::string_view text) {
  if (text.empty()) {
    return false;
  }
  for (const char c : text) {
    if (!is_digit(c)) {
      return false;
    }
  }
  return true;
}

// `count` dot-separated numbers and nothing else.
bool is_dotted_numbers(std::string_view text, std::size_t count) {
  const auto parts = util::split(text, '.');
  if (parts.size() != count) {
    return false;
  }
  for (const auto& part : parts) {
    if (!all_digits(part)) {
      return false;
    }
  }
  return true;
}

bool is_lower_alnum_word(std::string_view text) {
  if (text.empty()) {
    return false;
  }
  for (const char c : text) {
    if (!is_lower_alnum(c)) {
      return false;
    }
  }
  return true;
}

} // namespace

bool is_major_minor(std::string_view text) {
  return is_dotted_numbers(text, 2);
}

bool is_major_minor_patch(std::string_view text) {
  return is_dotted_numbers(text, 3);
}

bool is_version_prefix(std::string_view text) {
  const std::size_t first_dot = text.find('.');
  if (first_dot == std::string_view::npos || !all_digits(text.substr(0, first_dot))) {
    return false;
  }
  std::size_t i = first_dot + 1;
  const std::size_t minor_start = i;
  while (i < text.size() && is_digit(text[i])) {
    ++i;
  }
  if (i == minor_start) {
    return false;
  }
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (!is_alnum(c) && c != '.' && c != '+' && c != '-' && c != '_') {
      return false;
    }
  }
  return true;
}

bool is_sha256_hex(std::string_view text) {
  return text.size() == 64 && util::is_hex(text);
}

bool is_platform(std::string_view text) {
  const auto parts = util::split(text, '/');
  if (parts.size() < 2 || parts.size() > 3) {
    return false;
  }
  for (const auto& part : parts) {
    if (!is_lower_alnum_word(part)) {
      return false;
    }
  }
  return true;
}

bool is_image_tag(std::string_view text) {
  if (text.empty() || text.size() > 128 || text.front() == '.' || text.front() == '-') {
    return false;
  }
  for (const char c : text) {
    if (!is_alnum(c) && c != '_' && c != '.' && c != '-') {
      return false;
    }
  }
  return true;
}

bool is_repository_path(std::string_view text) {
  if (text.empty()) {
    return false;
  }
  for (const auto& part : util::split(text, '/')) {
    if (!oci::is_repository_component(part)) {
      return false;
    }
  }
  return true;
}

bool is_build_arg_name(std::string_view text) {
  if (text.empty() || is_digit(text.front())) {
    return false;
  }
  for (const char c : text) {
    if (!is_alnum(c) && c != '_') {
      return false;
    }
  }
  return true;
}

bool is_git_url(std::string_view text) {
  if (text.find("://") != std::string_view::npos) {
    return true;
  }
  // scp-like syntax: [user@]host:path, where the ':' comes before any '/'.
  const std::size_t colon = text.find(':');
  const std::size_t slash = text.find('/');
  return colon != std::string_view::npos && colon > 0 &&
         (slash == std::string_view::npos || colon < slash);
}

bool has_url_credentials(std::string_view url) {
  const std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) {
    return false;
  }
  const std::string_view scheme = url.substr(0, scheme_end);
  std::string_view authority = url.substr(scheme_end + 3);
  authority = authority.substr(0, authority.find('/'));
  const std::size_t at = authority.rfind('@');
  if (at == std::string_view::npos) {
    return false;
  }
  const bool password = authority.substr(0, at).find(':') != std::string_view::npos;
  const bool web = scheme == "http" || scheme == "https";
  return password || web;
}

} // namespace envlock::manifest
