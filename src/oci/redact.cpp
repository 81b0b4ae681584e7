// redact_url(): what may be printed of a URL.
#include "oci/registry.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <array>

namespace envlock::oci {

namespace {

// Query keys whose values are secrets (token endpoints, signed storage URLs): these names, and
// any key ending in one of them ("x-amz-signature", "refresh_token").
constexpr std::array<std::string_view, 9> k_secret_keys = {
    "token", "password", "passwd", "secret", "signature", "sig", "credential", "key", "auth"};

bool is_secret_key(std::string_view key) {
  const std::string lower = util::to_lower(key);
  return std::any_of(k_secret_keys.begin(), k_secret_keys.end(), [&](std::string_view word) {
    return std::string_view(lower).ends_with(word);
  });
}

std::string redact_query(std::string_view query) {
  std::vector<std::string> out;
  for (const auto& pair : util::split(query, '&')) {
    const std::size_t eq = pair.find('=');
    if (eq != std::string::npos && is_secret_key(std::string_view(pair).substr(0, eq))) {
      out.push_back(pair.substr(0, eq) + "=REDACTED");
    } else {
      out.push_back(pair);
    }
  }
  return util::join(out, "&");
}

} // namespace

std::string redact_url(std::string_view url) {
  std::string_view rest = url;
  std::string out;
  if (const std::size_t scheme = rest.find("://"); scheme != std::string_view::npos) {
    out = std::string(rest.substr(0, scheme + 3));
    rest.remove_prefix(scheme + 3);
  }
  const std::size_t authority_end = rest.find_first_of("/?#");
  const std::string_view authority = rest.substr(0, authority_end);
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    rest.remove_prefix(at + 1);
  }
  const std::size_t fragment = rest.find('#');
  if (fragment != std::string_view::npos) {
    rest = rest.substr(0, fragment);
  }
  const std::size_t question = rest.find('?');
  if (question == std::string_view::npos) {
    return out + std::string(rest);
  }
  return out + std::string(rest.substr(0, question + 1)) + redact_query(rest.substr(question + 1));
}

} // namespace envlock::oci
