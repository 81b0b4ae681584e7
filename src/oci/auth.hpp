// Answering a registry's 401: HTTP basic credentials, or a Bearer token fetched from the realm
// named in the challenge (the Docker token spec: GET realm?service=...&scope=...).
#pragma once

#include "oci/challenge.hpp"
#include "oci/credentials.hpp"
#include "oci/http.hpp"
#include "util/result.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::oci {

// Performs a token request (with retries) and returns its response, whatever the status.
using TokenFetch = std::function<Result<HttpResponse>(HttpRequest)>;

// "Basic base64(user:password)".
std::string basic_authorization(const Credential& credential);

// The token in a token endpoint's JSON answer ("token", else "access_token"). An environment
// error naming the redacted `url` when there is none; the body is never quoted.
Result<std::string> parse_token_response(std::string_view body, std::string_view url);

// The Authorization value that answers `challenges` for `registry`: Bearer is preferred, then
// Basic. `scope` is used when the challenge names none. Environment errors: no usable scheme,
// Basic without credentials, a failing token endpoint (redacted URL and HTTP status).
Result<std::string> answer_challenges(const std::vector<Challenge>& challenges,
                                      const std::optional<Credential>& credential,
                                      std::string_view registry, std::string_view scope,
                                      const TokenFetch& fetch);

} // namespace envlock::oci
