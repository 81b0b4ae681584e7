#include "oci/auth.hpp"

#include "oci/curl.hpp"
#include "oci/registry.hpp"
#include "util/base64.hpp"

#include <nlohmann/json.hpp>

namespace envlock::oci {

namespace {

const Challenge* find_scheme(const std::vector<Challenge>& challenges, std::string_view scheme) {
  for (const auto& challenge : challenges) {
    if (challenge.scheme == scheme) {
      return &challenge;
    }
  }
  return nullptr;
}

std::string param(const Challenge& challenge, const char* name) {
  const auto it = challenge.params.find(name);
  return it == challenge.params.end() ? std::string() : it->second;
}

Result<std::string> bearer_token(const Challenge& challenge,
                                 const std::optional<Credential>& credential,
                                 std::string_view registry, std::string_view scope,
                                 const TokenFetch& fetch) {
  const std::string realm = param(challenge, "realm");
  if (realm.empty()) {
    return env_error(std::string(registry) + ": Bearer challenge without a realm");
  }
  std::string challenge_scope = param(challenge, "scope");
  if (challenge_scope.empty()) {
    challenge_scope = std::string(scope);
  }
  std::string url = realm;
  char sep = realm.find('?') == std::string::npos ? '?' : '&';
  if (const std::string service = param(challenge, "service"); !service.empty()) {
    url += sep + std::string("service=") + curl::escape(service);
    sep = '&';
  }
  if (!challenge_scope.empty()) {
    url += sep + std::string("scope=") + curl::escape(challenge_scope);
  }
  HttpRequest request;
  request.url = url;
  request.body_limit = std::size_t{1} << 20U;
  if (credential) {
    request.authorization = basic_authorization(*credential);
  }
  ENVLOCK_TRY_ASSIGN(const HttpResponse response, fetch(request));
  if (response.status == 401 || response.status == 403) {
    return env_error("GET " + redact_url(url) + ": HTTP " + std::to_string(response.status) +
                     " (authentication failed)");
  }
  if (response.status != 200) {
    return env_error("GET " + redact_url(url) + ": HTTP " + std::to_string(response.status));
  }
  ENVLOCK_TRY_ASSIGN(const std::string token, parse_token_response(response.body, url));
  return "Bearer " + token;
}

} // namespace

std::string basic_authorization(const Credential& credential) {
  return "Basic " + util::base64_encode(credential.user + ":" + credential.password);
}

Result<std::string> parse_token_response(std::string_view body, std::string_view url) {
  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_object()) {
    for (const char* key : {"token", "access_token"}) {
      const auto it = json.find(key);
      if (it != json.end() && it->is_string() && !it->get<std::string>().empty()) {
        return it->get<std::string>();
      }
    }
  }
  return env_error("GET " + redact_url(url) + ": no token in the answer");
}

Result<std::string> answer_challenges(const std::vector<Challenge>& challenges,
                                      const std::optional<Credential>& credential,
                                      std::string_view registry, std::string_view scope,
                                      const TokenFetch& fetch) {
  if (const Challenge* bearer = find_scheme(challenges, "bearer")) {
    return bearer_token(*bearer, credential, registry, scope, fetch);
  }
  if (find_scheme(challenges, "basic") != nullptr) {
    if (!credential) {
      return env_error(std::string(registry) +
                       " requires a login and no credentials were found for it");
    }
    return basic_authorization(*credential);
  }
  return env_error(std::string(registry) + " asks for an unsupported authentication scheme '" +
                   (challenges.empty() ? std::string() : challenges.front().scheme) + "'");
}

} // namespace envlock::oci
