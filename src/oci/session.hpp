// The request loop of the registry client: sends a request, answers 401 challenges once (caching
// the Authorization per registry and scope), and retries 5xx, 429 and transport failures with
// exponential backoff. What is left (2xx, 3xx, other 4xx) goes back to the caller.
#pragma once

#include "oci/credentials.hpp"
#include "oci/http.hpp"
#include "oci/registry.hpp"
#include "util/result.hpp"
#include "util/secret_values.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::oci {

// Who a request is for: the registry (host[:port]) and the token scope it needs, e.g.
// "repository:team/app:pull".
struct AuthScope {
  std::string registry;
  std::string scope;
};

class Session {
public:
  explicit Session(RegistryOptions options);

  // Sends `request` with retries; with `auth`, 401s are answered once. Environment errors (exit
  // 3) name the method, the redacted URL, the HTTP status or transport error, and the number of
  // attempts when there was more than one.
  Result<HttpResponse> send(HttpRequest request, const std::optional<AuthScope>& auth);

  // https://REGISTRY, or http:// for a registry listed as insecure (--insecure-registry or
  // ENVLOCK_INSECURE_REGISTRIES) or a loopback registry found to answer plain HTTP.
  [[nodiscard]] std::string base_url(std::string_view registry) const;

  [[nodiscard]] const RegistryOptions& options() const { return m_options; }

  // `text` with every secret this session knows replaced by "***": the credential store's
  // (oci::known_secrets), the environment's, and the tokens it was given.
  [[nodiscard]] std::string scrub(std::string_view text);

  // "METHOD URL: HTTP STATUS (registry error code)" for a final non-2xx answer, naming the URL
  // the request really used: an input error for 404 (the name or tag does not exist), an
  // environment error otherwise. The registry's code is scrubbed and shown printable.
  Error status_error(const HttpRequest& request, const HttpResponse& response);

private:
  Result<std::string> authorize(const HttpResponse& response, const AuthScope& auth);
  Result<std::optional<Credential>> credential_for(const std::string& registry);
  void notice(const std::string& line) const;

  RegistryOptions m_options;
  std::map<std::string, std::string> m_authorizations;            // "registry|scope" -> value
  std::map<std::string, std::optional<Credential>> m_credentials; // per registry
  std::set<std::string> m_plain_loopback;      // loopback registries that answered plain HTTP
  std::optional<util::SecretValues> m_secrets; // known_secrets(), read when first needed
  util::SecretValues m_tokens;                 // the tokens and credentials used
};

// Whether a registry (HOST[:PORT]) is on loopback: localhost, 127.0.0.0/8 or [::1]. Like docker,
// envlock treats these as insecure: HTTPS first, plain HTTP when the registry answers it.
bool is_loopback_registry(std::string_view registry);

// The insecure registries listed in ENVLOCK_INSECURE_REGISTRIES (commas or spaces between them).
std::vector<std::string> insecure_registries_from_environment();

// Text a server supplied, fit to print: control characters and bytes outside printable ASCII
// become '?', and at most `max` characters are kept ("..." marks a cut).
std::string printable_server_text(std::string_view text, std::size_t max = 200);

} // namespace envlock::oci
