#include "oci/http.hpp"

#include "oci/curl.hpp"
#include "oci/registry.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <array>

namespace envlock::oci {

namespace {

constexpr int k_max_redirects = 5;
constexpr std::size_t k_error_body_limit = std::size_t{64} * 1024;

// State shared with the libcurl callbacks of one hop.
struct Transfer {
  CURL* handle = nullptr;
  const HttpRequest* request = nullptr;
  HttpResponse response;
  std::optional<Error> stop; // why a callback aborted the transfer
};

bool is_success(long status) {
  return status >= 200 && status < 300;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto& transfer = *static_cast<Transfer*>(user);
  const std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {
    transfer.response.headers.clear();
    return size * count;
  }
  const std::size_t colon = line.find(':');
  if (colon != std::string_view::npos) {
    transfer.response.headers[util::to_lower(util::trim(line.substr(0, colon)))] =
        std::string(util::trim(line.substr(colon + 1)));
  }
  return size * count;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto& transfer = *static_cast<Transfer*>(user);
  const HttpRequest& request = *transfer.request;
  std::string_view chunk(data, size * count);
  long status = 0;
  if (curl_easy_getinfo(transfer.handle, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK) {
    transfer.stop = env_error("libcurl: cannot read the response status");
    return 0;
  }
  HttpResponse& response = transfer.response;
  const std::uint64_t before = response.body_bytes;
  response.body_bytes += chunk.size();
  if (request.sink != nullptr && is_success(status)) {
    if (before + chunk.size() <= request.skip) {
      response.sink_end = response.body_bytes;
      return size * count;
    }
    if (before < request.skip) {
      chunk.remove_prefix(static_cast<std::size_t>(request.skip - before));
    }
    Status written = (*request.sink)(chunk);
    if (!written) {
      transfer.stop = std::move(written).error();
      return 0;
    }
    response.sink_end = response.body_bytes;
    return size * count;
  }
  const std::size_t limit = is_success(status) && request.body_limit != 0
                                ? request.body_limit
                                : (is_success(status) ? SIZE_MAX : k_error_body_limit);
  if (response.body.size() + chunk.size() > limit) {
    if (!is_success(status)) {
      return size * count; // keep the start of an error body, drop the rest
    }
    transfer.stop = env_error(request.method + " " + redact_url(response.url) +
                              ": response larger than " + std::to_string(limit) + " bytes");
    return 0;
  }
  response.body.append(chunk);
  return size * count;
}

Retry retry_for(CURLcode code) {
  switch (code) {
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_CONNECT:
  case CURLE_OPERATION_TIMEDOUT:
  case CURLE_PARTIAL_FILE:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
  case CURLE_GOT_NOTHING:
  case CURLE_HTTP2:
  case CURLE_HTTP2_STREAM:
    return Retry::allowed;
  default:
    return Retry::pointless;
  }
}

long stall_seconds(const HttpRequest& request) {
  return std::max<long>(1, static_cast<long>(request.timeout.count() / 1000));
}

Status configure(CURL* h, const HttpRequest& request, const std::string& url,
                 const curl::Headers& headers, Transfer& transfer, char* error_buffer) {
  ENVLOCK_TRY(curl::set(h, CURLOPT_URL, url.c_str(), "URL"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_PROTOCOLS_STR, "http,https", "PROTOCOLS_STR"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_NOSIGNAL, 1L, "NOSIGNAL"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_ERRORBUFFER, error_buffer, "ERRORBUFFER"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_FOLLOWLOCATION, 0L, "FOLLOWLOCATION"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_UNRESTRICTED_AUTH, 0L, "UNRESTRICTED_AUTH"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_SSL_VERIFYPEER, 1L, "SSL_VERIFYPEER"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_SSL_VERIFYHOST, 2L, "SSL_VERIFYHOST"));
  if (!request.ca_file.empty()) {
    ENVLOCK_TRY(curl::set(h, CURLOPT_CAINFO, request.ca_file.c_str(), "CAINFO"));
  }
  ENVLOCK_TRY(curl::set(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(request.timeout.count()),
                        "CONNECTTIMEOUT_MS"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_LOW_SPEED_LIMIT, 1L, "LOW_SPEED_LIMIT"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_LOW_SPEED_TIME, stall_seconds(request), "LOW_SPEED_TIME"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_USERAGENT, "envlock/" ENVLOCK_VERSION, "USERAGENT"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_HTTPHEADER, headers.get(), "HTTPHEADER"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_HEADERFUNCTION, &on_header, "HEADERFUNCTION"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_HEADERDATA, static_cast<void*>(&transfer), "HEADERDATA"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_WRITEFUNCTION, &on_body, "WRITEFUNCTION"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_WRITEDATA, static_cast<void*>(&transfer), "WRITEDATA"));
  if (request.method == "HEAD") {
    ENVLOCK_TRY(curl::set(h, CURLOPT_NOBODY, 1L, "NOBODY"));
  } else if (request.method != "GET") {
    ENVLOCK_TRY(curl::set(h, CURLOPT_CUSTOMREQUEST, request.method.c_str(), "CUSTOMREQUEST"));
    ENVLOCK_TRY(curl::set(h, CURLOPT_POSTFIELDSIZE_LARGE,
                          static_cast<curl_off_t>(request.body.size()), "POSTFIELDSIZE_LARGE"));
    ENVLOCK_TRY(curl::set(h, CURLOPT_POSTFIELDS, request.body.data(), "POSTFIELDS"));
  }
  return {};
}

// One hop: no redirect handling.
Result<HttpOutcome> perform_once(const HttpRequest& request, const std::string& url,
                                 bool with_authorization) {
  ENVLOCK_TRY_ASSIGN(curl::Easy easy, curl::make_easy());
  curl::Headers headers;
  for (const auto& line : request.headers) {
    ENVLOCK_TRY(headers.append(line));
  }
  if (with_authorization && !request.authorization.empty()) {
    ENVLOCK_TRY(headers.append("Authorization: " + request.authorization));
  }
  Transfer transfer;
  transfer.handle = easy.get();
  transfer.request = &request;
  transfer.response.url = url;
  std::array<char, CURL_ERROR_SIZE> error_buffer{};
  ENVLOCK_TRY(configure(easy.get(), request, url, headers, transfer, error_buffer.data()));
  const CURLcode rc = curl_easy_perform(easy.get());
  if (transfer.stop) {
    return std::move(*transfer.stop);
  }
  HttpOutcome outcome;
  if (rc != CURLE_OK) {
    std::string detail =
        error_buffer[0] != '\0' ? std::string(error_buffer.data()) : curl_easy_strerror(rc);
    if (rc == CURLE_OPERATION_TIMEDOUT && detail.starts_with("Operation too slow")) {
      detail = "stalled: no data for " + std::to_string(stall_seconds(request)) + " s";
    }
    const bool plain_http = rc == CURLE_SSL_CONNECT_ERROR && url.starts_with("https://") &&
                            detail.find("wrong version number") != std::string::npos;
    outcome.transport = TransportError{detail, retry_for(rc), plain_http};
  } else if (curl_easy_getinfo(easy.get(), CURLINFO_RESPONSE_CODE, &transfer.response.status) !=
             CURLE_OK) {
    return env_error("libcurl: cannot read the response status");
  }
  outcome.response = std::move(transfer.response);
  return outcome;
}

bool is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

} // namespace

Result<HttpOutcome> perform(const HttpRequest& request) {
  auto origin = curl::origin_of(request.url);
  if (!origin) {
    return input_error("not a URL: " + redact_url(request.url));
  }
  std::string url = request.url;
  for (int hop = 0;; ++hop) {
    auto here = curl::origin_of(url);
    const bool same_origin = here && *here == *origin;
    ENVLOCK_TRY_ASSIGN(HttpOutcome outcome, perform_once(request, url, same_origin));
    const auto& response = outcome.response;
    const auto location = response.headers.find("location");
    if (outcome.transport || request.redirects == Redirects::refuse ||
        !is_redirect(response.status) || location == response.headers.end()) {
      return outcome;
    }
    if (hop == k_max_redirects) {
      return env_error(request.method + " " + redact_url(request.url) + ": more than " +
                       std::to_string(k_max_redirects) + " redirects");
    }
    auto next = curl::resolve_url(url, location->second);
    if (!next) {
      return env_error(request.method + " " + redact_url(url) + ": bad redirect location");
    }
    url = *next;
  }
}

} // namespace envlock::oci
