#include "oci/image_ref.hpp"

#include "util/strings.hpp"

#include <cctype>

namespace envlock::oci {

namespace {

constexpr std::size_t k_max_name_length = 255;
constexpr std::size_t k_max_tag_length = 128;

bool is_lower_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// A repository path component: [a-z0-9]+ (( [._] | __ | -+ ) [a-z0-9]+)*
bool is_valid_component(std::string_view part) {
  std::size_t i = 0;
  const auto alnum_run = [&] {
    const std::size_t start = i;
    while (i < part.size() && is_lower_alnum(part[i])) {
      ++i;
    }
    return i > start;
  };
  if (!alnum_run()) {
    return false;
  }
  while (i < part.size()) {
    if (part.substr(i, 2) == "__") {
      i += 2;
    } else if (part[i] == '.' || part[i] == '_') {
      ++i;
    } else if (part[i] == '-') {
      while (i < part.size() && part[i] == '-') {
        ++i;
      }
    } else {
      return false;
    }
    if (!alnum_run()) {
      return false;
    }
  }
  return true;
}

// A registry host: labels of letters, digits and '-', separated by '.', then an optional :port.
bool is_valid_registry(std::string_view registry) {
  std::string_view host = registry;
  const std::size_t colon = registry.rfind(':');
  if (colon != std::string_view::npos) {
    const std::string_view port = registry.substr(colon + 1);
    if (port.empty() || port.size() > 5) {
      return false;
    }
    for (const char c : port) {
      if (c < '0' || c > '9') {
        return false;
      }
    }
    host = registry.substr(0, colon);
  }
  if (host.empty()) {
    return false;
  }
  for (const auto& label : util::split(host, '.')) {
    if (label.empty() || label.front() == '-' || label.back() == '-') {
      return false;
    }
    for (const char c : label) {
      if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '-') {
        return false;
      }
    }
  }
  return true;
}

bool is_registry_component(std::string_view first) {
  return first.find_first_of(".:") != std::string_view::npos || first == "localhost";
}

Error bad_ref(std::string_view text, std::string_view why) {
  return input_error("invalid image reference '" + std::string(text) + "': " + std::string(why));
}

} // namespace

bool is_repository_component(std::string_view part) {
  return is_valid_component(part);
}

std::string ImageRef::name() const {
  return registry + "/" + repository;
}

std::string ImageRef::to_string() const {
  std::string out = name();
  if (!tag.empty()) {
    out += ":" + tag;
  }
  if (!digest.empty()) {
    out += "@" + digest;
  }
  return out;
}

std::string ImageRef::reference() const {
  if (!digest.empty()) {
    return digest;
  }
  return tag.empty() ? "latest" : tag;
}

bool is_valid_digest(std::string_view digest) {
  constexpr std::string_view prefix = "sha256:";
  if (!digest.starts_with(prefix) || digest.size() != prefix.size() + 64) {
    return false;
  }
  for (const char c : digest.substr(prefix.size())) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return false;
    }
  }
  return true;
}

Result<ImageRef> parse_image_ref(std::string_view text) {
  if (text.empty()) {
    return input_error("invalid image reference '': empty");
  }
  ImageRef ref;
  std::string_view rest = text;
  if (const std::size_t at = rest.find('@'); at != std::string_view::npos) {
    const std::string_view digest = rest.substr(at + 1);
    if (!is_valid_digest(digest)) {
      return bad_ref(text, "invalid digest '" + std::string(digest) +
                               "': expected sha256: and 64 lowercase hex digits");
    }
    ref.digest = std::string(digest);
    rest = rest.substr(0, at);
  }
  const std::size_t last_slash = rest.rfind('/');
  const std::size_t colon = rest.rfind(':');
  if (colon != std::string_view::npos &&
      (last_slash == std::string_view::npos || colon > last_slash)) {
    const std::string_view tag = rest.substr(colon + 1);
    if (!is_valid_tag(tag)) {
      return bad_ref(text, "invalid tag '" + std::string(tag) + "'");
    }
    ref.tag = std::string(tag);
    rest = rest.substr(0, colon);
  }
  if (rest.empty()) {
    return bad_ref(text, "missing repository");
  }
  std::string_view path = rest;
  if (const std::size_t slash = rest.find('/');
      slash != std::string_view::npos && is_registry_component(rest.substr(0, slash))) {
    const std::string_view registry = rest.substr(0, slash);
    if (!is_valid_registry(registry)) {
      return bad_ref(text, "invalid registry '" + std::string(registry) + "'");
    }
    ref.registry = std::string(registry);
    path = rest.substr(slash + 1);
  } else {
    ref.registry = k_default_registry;
  }
  if (ref.registry == "docker.io" || ref.registry == "index.docker.io") {
    ref.registry = k_default_registry;
  }
  if (path.empty()) {
    return bad_ref(text, "missing repository");
  }
  for (const auto& part : util::split(path, '/')) {
    if (is_valid_component(part)) {
      continue;
    }
    if (util::to_lower(part) != part && is_valid_component(util::to_lower(part))) {
      return bad_ref(text, "repository must be lowercase");
    }
    return bad_ref(text, "invalid repository component '" + part + "'");
  }
  ref.repository = std::string(path);
  if (ref.registry == k_default_registry && ref.repository.find('/') == std::string::npos) {
    ref.repository = "library/" + ref.repository;
  }
  if (ref.name().size() > k_max_name_length) {
    return bad_ref(text, "name longer than 255 characters");
  }
  return ref;
}

bool is_valid_tag(std::string_view tag) {
  if (tag.empty() || tag.size() > k_max_tag_length || !is_word_char(tag[0])) {
    return false;
  }
  for (const char c : tag) {
    if (!is_word_char(c) && c != '.' && c != '-') {
      return false;
    }
  }
  return true;
}

} // namespace envlock::oci
