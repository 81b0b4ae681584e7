#include "oci/session.hpp"

#include "oci/auth.hpp"
#include "oci/challenge.hpp"
#include "oci/curl.hpp"
#include "oci/known_secrets.hpp"
#include "util/interrupt.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace envlock::oci {

namespace {

constexpr std::chrono::milliseconds k_max_delay{60000};

bool is_retryable_status(long status) {
  return status == 429 || (status >= 500 && status <= 599);
}

std::chrono::milliseconds backoff_delay(const RegistryOptions& options, int attempt) {
  auto delay = options.backoff;
  for (int i = 1; i < attempt && delay < k_max_delay; ++i) {
    delay *= 2;
  }
  return std::min(delay, k_max_delay);
}

// Retry-After in seconds (the HTTP-date form is not used by registries), capped.
std::optional<std::chrono::milliseconds> retry_after(const HttpResponse& response) {
  const auto it = response.headers.find("retry-after");
  if (it == response.headers.end()) {
    return std::nullopt;
  }
  long seconds = 0;
  const std::string& text = it->second;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc() || end != text.data() + text.size() || seconds < 0) {
    return std::nullopt;
  }
  return std::min<std::chrono::milliseconds>(std::chrono::seconds(seconds), k_max_delay);
}

std::string attempts_text(int attempts) {
  return attempts > 1 ? " after " + std::to_string(attempts) + " attempts" : std::string();
}

// The first error code of a registry's JSON error body, as it was sent.
std::string registry_error_code(const std::string& body) {
  const auto json = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!json.is_object() || !json.contains("errors") || !json["errors"].is_array() ||
      json["errors"].empty() || !json["errors"][0].is_object()) {
    return {};
  }
  const auto& first = json["errors"][0];
  if (!first.contains("code") || !first["code"].is_string()) {
    return {};
  }
  return first["code"].get<std::string>();
}

bool same_origin(const std::string& a, const std::string& b) {
  const auto first = curl::origin_of(a);
  const auto second = curl::origin_of(b);
  return first && second && *first == *second;
}

} // namespace

std::string printable_server_text(std::string_view text, std::size_t max) {
  std::string out;
  for (const char c : text) {
    if (out.size() == max) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    out += u >= 0x20 && u < 0x7f ? c : '?';
  }
  return out;
}

std::string Session::scrub(std::string_view text) {
  if (!m_secrets) {
    m_secrets =
        known_secrets(CredentialFiles{m_options.docker_config, m_options.enroot_credentials});
  }
  return m_tokens.scrub(m_secrets->scrub(text));
}

Error Session::status_error(const HttpRequest& request, const HttpResponse& response) {
  const std::string& url = response.requested_url.empty() ? request.url : response.requested_url;
  std::string message =
      request.method + " " + redact_url(url) + ": HTTP " + std::to_string(response.status);
  // Scrubbed before the case changes, or the secret's Base64 would no longer match.
  std::string code = util::replace_all(
      util::to_lower(printable_server_text(scrub(registry_error_code(response.body)))), "_", " ");
  if (code.empty() && response.status == 404) {
    code = "not found";
  }
  if (!code.empty()) {
    message += " (" + code + ")";
  }
  return response.status == 404 ? input_error(message) : env_error(message);
}

void Session::notice(const std::string& line) const {
  if (m_options.notice) {
    m_options.notice(line);
  }
}

bool is_loopback_registry(std::string_view registry) {
  if (registry.starts_with("[::1]")) {
    return registry.size() == 5 || registry[5] == ':';
  }
  const std::string_view host = registry.substr(0, registry.find(':'));
  return host == "localhost" || host.starts_with("127.");
}

std::vector<std::string> insecure_registries_from_environment() {
  std::vector<std::string> out;
  const char* value = std::getenv("ENVLOCK_INSECURE_REGISTRIES");
  std::string entry;
  for (const char c : std::string_view(value == nullptr ? "" : value)) {
    if (c == ',' || c == ' ' || c == '\t' || c == '\n') {
      if (!entry.empty()) {
        out.push_back(std::exchange(entry, {}));
      }
    } else {
      entry += c;
    }
  }
  if (!entry.empty()) {
    out.push_back(entry);
  }
  return out;
}

Session::Session(RegistryOptions options) : m_options(std::move(options)) {
  for (auto& entry : insecure_registries_from_environment()) {
    m_options.insecure_registries.push_back(std::move(entry));
  }
}

std::string Session::base_url(std::string_view registry) const {
  const std::string host(registry.substr(0, registry.rfind(':')));
  const bool insecure =
      std::any_of(m_options.insecure_registries.begin(), m_options.insecure_registries.end(),
                  [&](const std::string& entry) { return entry == registry || entry == host; }) ||
      m_plain_loopback.contains(std::string(registry));
  return (insecure ? "http://" : "https://") + std::string(registry);
}

Result<std::optional<Credential>> Session::credential_for(const std::string& registry) {
  if (const auto it = m_credentials.find(registry); it != m_credentials.end()) {
    return it->second;
  }
  const CredentialFiles files{m_options.docker_config, m_options.enroot_credentials};
  ENVLOCK_TRY_ASSIGN(auto credential, find_credential(files, registry));
  m_credentials[registry] = credential;
  if (credential) {
    m_tokens.add_login(credential->user, credential->password);
  }
  return credential;
}

Result<std::string> Session::authorize(const HttpResponse& response, const AuthScope& auth) {
  const auto header = response.headers.find("www-authenticate");
  if (header == response.headers.end()) {
    return env_error(redact_url(response.url) + ": HTTP 401 without a WWW-Authenticate header");
  }
  auto challenges = parse_www_authenticate(header->second);
  if (!challenges) {
    return env_error(redact_url(response.url) + ": " + challenges.error().message);
  }
  ENVLOCK_TRY_ASSIGN(const auto credential, credential_for(auth.registry));
  const TokenFetch fetch = [this](HttpRequest token_request) {
    return send(std::move(token_request), std::nullopt);
  };
  ENVLOCK_TRY_ASSIGN(std::string value,
                     answer_challenges(*challenges, credential, auth.registry, auth.scope, fetch));
  m_tokens.add(value);
  if (value.starts_with("Bearer ")) {
    m_tokens.add(std::string_view(value).substr(7));
  }
  m_authorizations[auth.registry + "|" + auth.scope] = value;
  return value;
}

Result<HttpResponse> Session::send(HttpRequest request, const std::optional<AuthScope>& auth) {
  bool answered = false;
  if (auth) {
    const auto it = m_authorizations.find(auth->registry + "|" + auth->scope);
    if (it != m_authorizations.end()) {
      request.authorization = it->second;
    }
  }
  std::string what = request.method + " " + redact_url(request.url);
  const WaitNotice waiting = [&](const std::string& line) { notice(what + ": " + line); };
  if (m_options.notice) {
    request.on_wait = &waiting;
  }
  const int max_attempts = std::max(1, m_options.max_attempts);
  std::uint64_t delivered = 0;
  for (int attempt = 1;; ++attempt) {
    request.skip = delivered;
    ENVLOCK_TRY_ASSIGN(HttpOutcome outcome, perform(request));
    HttpResponse& response = outcome.response;
    delivered = std::max(delivered, response.sink_end);
    std::optional<std::chrono::milliseconds> delay;
    if (outcome.transport && outcome.transport->plain_http && request.url.starts_with("https://")) {
      // A loopback registry speaks plain HTTP: say so once and talk HTTP to it, as docker does.
      const std::string registry = request.url.substr(8, request.url.find('/', 8) - 8);
      if (is_loopback_registry(registry) && m_plain_loopback.insert(registry).second) {
        request.url.replace(0, 5, "http");
        what = request.method + " " + redact_url(request.url);
        --attempt;
        continue;
      }
      return env_error(what + ": the registry answered plain HTTP, not HTTPS; if it serves " +
                       "plain HTTP, name it with --insecure-registry " + registry +
                       " (or list it in ENVLOCK_INSECURE_REGISTRIES)");
    }
    std::string failure;
    if (outcome.transport) {
      if (outcome.transport->retry == Retry::pointless || attempt >= max_attempts) {
        return env_error(what + ": " + outcome.transport->message + attempts_text(attempt));
      }
      failure = outcome.transport->message;
    } else if (response.status == 401 && auth && !same_origin(response.url, request.url)) {
      // A redirect led to another host that asks for credentials: they belong to the registry
      // and the token service it names, never to a host a redirect chose.
      return env_error(what + ": HTTP 401 from " + redact_url(response.url) +
                       " (a redirect to another host); no credentials are sent there");
    } else if (response.status == 401 && auth && !answered) {
      ENVLOCK_TRY_ASSIGN(request.authorization, authorize(response, *auth));
      answered = true;
      --attempt; // answering a challenge is not a failed attempt
      continue;
    } else if (response.status == 401 && auth) {
      return env_error(what + ": HTTP 401 (authentication failed)");
    } else if (!is_retryable_status(response.status)) {
      return std::move(response);
    } else if (attempt >= max_attempts) {
      return env_error(what + ": HTTP " + std::to_string(response.status) + attempts_text(attempt));
    } else {
      delay = retry_after(response);
      failure = "HTTP " + std::to_string(response.status);
    }
    const auto wait = delay.value_or(backoff_delay(m_options, attempt));
    notice(what + ": " + failure + "; attempt " + std::to_string(attempt + 1) + " of " +
           std::to_string(max_attempts) + " after " + seconds_text(wait));
    ENVLOCK_TRY(util::interruptible_sleep(wait));
  }
}

} // namespace envlock::oci
