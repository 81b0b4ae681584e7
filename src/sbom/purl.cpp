#include "sbom/purl.hpp"

namespace envlock::sbom {

std::string purl_encode(std::string_view text, bool keep_slash) {
  static constexpr const char* k_hex = "0123456789ABCDEF";
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    const bool plain = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') ||
                       c == '.' || c == '-' || c == '_' || c == '~' || (keep_slash && c == '/');
    if (plain) {
      out += c;
    } else {
      out += '%';
      out += k_hex[u >> 4U];
      out += k_hex[u & 0xfU];
    }
  }
  return out;
}

std::string make_purl(std::string_view type, std::string_view namespace_part, std::string_view name,
                      std::string_view version,
                      const std::map<std::string, std::string>& qualifiers) {
  std::string out = "pkg:" + std::string(type) + "/";
  if (!namespace_part.empty()) {
    out += purl_encode(namespace_part, true) + "/";
  }
  out += purl_encode(name);
  if (!version.empty()) {
    out += "@" + purl_encode(version);
  }
  char sep = '?';
  for (const auto& [key, value] : qualifiers) {
    if (!value.empty()) {
      out += sep + key + "=" + purl_encode(value, key == "repository_url");
      sep = '&';
    }
  }
  return out;
}

std::string pypi_purl(std::string_view normalized_name, std::string_view version) {
  return make_purl("pypi", "", normalized_name, version);
}

std::string oci_purl(std::string_view image_name, std::string_view digest) {
  const auto slash = image_name.find_last_of('/');
  const std::string_view last =
      slash == std::string_view::npos ? image_name : image_name.substr(slash + 1);
  return make_purl("oci", "", last, digest, {{"repository_url", std::string(image_name)}});
}

} // namespace envlock::sbom
