#include "git/location.hpp"

#include <cstring>

namespace envlock::git {

LocationKind classify_location(std::string_view location) {
  if (location.starts_with("file://")) {
    return LocationKind::local_path; // a repository on this machine, as git treats it
  }
  if (location.find("://") != std::string_view::npos) {
    return LocationKind::remote_url;
  }
  // scp-like syntax: a colon before any slash, and not a one-letter drive-like prefix.
  const auto colon = location.find(':');
  const auto slash = location.find('/');
  if (colon != std::string_view::npos && colon > 1 &&
      (slash == std::string_view::npos || colon < slash)) {
    return LocationKind::remote_url;
  }
  return LocationKind::local_path;
}

std::filesystem::path local_path_of(std::string_view location) {
  if (!location.starts_with("file://")) {
    return std::filesystem::path(location);
  }
  location.remove_prefix(std::strlen("file://"));
  if (location.starts_with("localhost/")) {
    location.remove_prefix(std::strlen("localhost"));
  }
  return std::filesystem::path(location);
}

std::string redact_location(std::string_view location) {
  const auto scheme = location.find("://");
  const std::size_t start = scheme == std::string_view::npos ? 0 : scheme + 3;
  const auto slash = location.find('/', start);
  const auto host_part = location.substr(
      start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
  const auto at = host_part.rfind('@');
  if (at == std::string_view::npos || scheme == std::string_view::npos) {
    // scp-like "git@host:path" names a user but carries no secret.
    return std::string(location);
  }
  return std::string(location.substr(0, start)) + std::string(location.substr(start + at + 1));
}

} // namespace envlock::git
