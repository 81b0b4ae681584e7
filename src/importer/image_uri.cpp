#include "importer/image_uri.hpp"

#include <algorithm>

namespace envlock::importer {

namespace {

constexpr std::string_view k_scheme = "docker://";

Error bad_uri(std::string_view text, const std::string& why) {
  return input_error("invalid image URI '" + std::string(text) + "': " + why +
                     "; expected docker://[USER@][REGISTRY#]IMAGE[:TAG][@sha256:…] or the path "
                     "of a .sqsh");
}

// A registry host as Enroot's '#' form allows it: letters, digits, '.', '-' and one :PORT.
bool is_registry_host(std::string_view host) {
  if (host.empty()) {
    return false;
  }
  const std::size_t colon = host.find(':');
  const std::string_view name = host.substr(0, colon);
  if (name.empty() || name.front() == '.' || name.front() == '-') {
    return false;
  }
  const bool name_ok = std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-';
  });
  if (!name_ok) {
    return false;
  }
  if (colon == std::string_view::npos) {
    return true;
  }
  const std::string_view port = host.substr(colon + 1);
  return !port.empty() && port.size() <= 5 &&
         std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "img:sha256:HEX" (Enroot 3's pinned form) as "img@sha256:HEX"; other text unchanged.
std::string digest_tag_as_digest(std::string_view image_part) {
  const std::size_t slash = image_part.rfind('/');
  const std::size_t colon = image_part.find(':', slash == std::string_view::npos ? 0 : slash);
  if (colon != std::string_view::npos && image_part.substr(colon + 1).starts_with("sha256:")) {
    return std::string(image_part.substr(0, colon)) + "@" +
           std::string(image_part.substr(colon + 1));
  }
  return std::string(image_part);
}

Result<oci::ImageRef> parse_reference(std::string_view text, std::string_view reference) {
  auto ref = oci::parse_image_ref(reference);
  if (!ref) {
    std::string why = ref.error().message;
    const std::string prefix = "invalid image reference '" + std::string(reference) + "': ";
    if (why.starts_with(prefix)) {
      why = why.substr(prefix.size());
    }
    return bad_uri(text, why);
  }
  return ref;
}

} // namespace

Result<ImageUri> parse_image_uri(std::string_view text) {
  ImageUri uri;
  uri.text = std::string(text);
  if (text.starts_with("/") || text.starts_with(".")) {
    uri.kind = UriKind::sqsh_path;
    uri.path = std::string(text);
    return uri;
  }
  if (!text.starts_with(k_scheme)) {
    const std::size_t sep = text.find("://");
    if (sep != std::string_view::npos) {
      return bad_uri(text, "the scheme '" + std::string(text.substr(0, sep)) +
                               "://' names no registry image envlock can pin");
    }
    return bad_uri(text, "no docker:// scheme");
  }
  std::string rest(text.substr(k_scheme.size()));
  std::string digest;
  if (const std::size_t at = rest.rfind("@sha256:"); at != std::string::npos) {
    digest = rest.substr(at);
    rest.resize(at);
  }
  // Whatever '@' is left ends the registry login: images, tags and hosts have none.
  if (const std::size_t at = rest.rfind('@'); at != std::string::npos) {
    uri.user = rest.substr(0, at);
    rest = rest.substr(at + 1);
    if (uri.user.empty()) {
      return bad_uri(text, "empty user before '@'");
    }
  }
  if (rest.empty()) {
    return bad_uri(text, "missing image");
  }
  if (const std::size_t hash = rest.find('#'); hash != std::string::npos) {
    const std::string registry = rest.substr(0, hash);
    if (!is_registry_host(registry)) {
      return bad_uri(text, "invalid registry '" + registry + "'");
    }
    const std::string image_part = digest_tag_as_digest(rest.substr(hash + 1)) + digest;
    if (image_part.find('#') != std::string::npos) {
      return bad_uri(text, "more than one '#'");
    }
    // Parsed under a stand-in registry, so that any host is taken as one (Enroot's '#' rule).
    ENVLOCK_TRY_ASSIGN(oci::ImageRef ref, parse_reference(text, "registry.invalid/" + image_part));
    ref.registry = registry;
    if (registry == "docker.io" || registry == "index.docker.io") {
      ref.registry = std::string(oci::k_default_registry);
    }
    if (ref.registry == oci::k_default_registry && ref.repository.find('/') == std::string::npos) {
      ref.repository = "library/" + ref.repository;
    }
    uri.image = std::move(ref);
    return uri;
  }
  std::string reference = digest_tag_as_digest(rest) + digest;
  // Enroot takes the first component as a registry only when it has '.' or ':'; Docker would
  // also take "localhost".
  const std::size_t slash = reference.find('/');
  if (slash != std::string::npos &&
      reference.substr(0, slash).find_first_of(".:") == std::string::npos) {
    reference = std::string(oci::k_default_registry) + "/" + reference;
  }
  ENVLOCK_TRY_ASSIGN(uri.image, parse_reference(text, reference));
  return uri;
}

std::string wanted_reference(const ImageUri& uri) {
  if (!uri.image.digest.empty()) {
    return "@" + uri.image.digest;
  }
  return ":" + (uri.image.tag.empty() ? std::string("latest") : uri.image.tag);
}

} // namespace envlock::importer
