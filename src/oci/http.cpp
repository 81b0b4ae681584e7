#include "oci/http.hpp"

#include "oci/curl.hpp"
#include "oci/registry.hpp"
#include "util/interrupt.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <array>
#include <sys/socket.h>

namespace envlock::oci {

namespace {

using Clock = std::chrono::steady_clock;

constexpr int k_max_redirects = 5;
constexpr std::chrono::milliseconds k_max_wait_notice_after{5000};
// libcurl's timer may end a hop a moment before the deadline it was given (whole milliseconds).
constexpr std::chrono::milliseconds k_deadline_slack{100};

// What a silent hop waits for, from how far it got.
enum class Phase { connection, tls_handshake, answer, data };

// State shared with the libcurl callbacks of one hop.
struct Transfer {
  CURL* handle = nullptr;
  const HttpRequest* request = nullptr;
  HttpResponse response;
  std::optional<Error> stop;   // why a callback aborted the transfer
  bool error_body_cut = false; // an error body reached k_error_body_limit: complete as it is
  std::size_t header_bytes = 0;
  curl_off_t last_received = -1; // body bytes at the last progress call
  Clock::time_point last_change = Clock::now();
  bool told_waiting = false;      // the current silence was told to on_wait
  int socket = -1;                // the socket libcurl connects, to tell TCP from the TLS handshake
  Phase seen = Phase::connection; // how far the hop had got at the last progress call
};

bool is_success(long status) {
  return status >= 200 && status < 300;
}

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto& transfer = *static_cast<Transfer*>(user);
  const std::string_view line(data, size * count);
  transfer.header_bytes += line.size();
  if (transfer.header_bytes > k_header_limit) {
    transfer.stop =
        env_error(transfer.request->method + " " + redact_url(transfer.response.url) +
                  ": response headers larger than " + std::to_string(k_header_limit) + " bytes");
    return 0;
  }
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
  if (!is_success(status)) {
    // Only the start of an error body matters; one without end must not keep the request.
    const std::size_t room =
        k_error_body_limit - std::min(k_error_body_limit, response.body.size());
    response.body.append(chunk.substr(0, std::min(room, chunk.size())));
    if (chunk.size() > room) {
      transfer.error_body_cut = true;
      return 0;
    }
    return size * count;
  }
  if (response.body.size() + chunk.size() > request.body_limit) {
    transfer.stop =
        env_error(request.method + " " + redact_url(response.url) + ": response larger than " +
                  std::to_string(request.body_limit) + " bytes");
    return 0;
  }
  response.body.append(chunk);
  return size * count;
}

// Whether the TCP connection of `socket` stands (libcurl's connect time counts the TLS
// handshake in, so it cannot tell).
bool tcp_connected(int socket) {
  sockaddr_storage peer{};
  socklen_t length = sizeof peer;
  return socket >= 0 && ::getpeername(socket, reinterpret_cast<sockaddr*>(&peer), &length) == 0;
}

Phase phase_of(const Transfer& transfer, const std::string& url) {
  curl_off_t connected = 0;
  long status = 0;
  if (curl_easy_getinfo(transfer.handle, CURLINFO_CONNECT_TIME_T, &connected) != CURLE_OK ||
      curl_easy_getinfo(transfer.handle, CURLINFO_RESPONSE_CODE, &status) != CURLE_OK) {
    return Phase::answer;
  }
  if (connected == 0) {
    return url.starts_with("https://") && tcp_connected(transfer.socket) ? Phase::tls_handshake
                                                                         : Phase::connection;
  }
  return status == 0 ? Phase::answer : Phase::data;
}

// The phase a timed-out hop was in: its socket is closed by then, so what the last progress
// call saw decides until the connection stood.
Phase timed_out_in(const Transfer& transfer, const std::string& url) {
  const Phase now = phase_of(transfer, url);
  return now == Phase::connection ? transfer.seen : now;
}

int on_socket(void* user, curl_socket_t socket, curlsocktype /*purpose*/) {
  static_cast<Transfer*>(user)->socket = socket;
  return CURL_SOCKOPT_OK;
}

const char* waiting_for(Phase phase) {
  switch (phase) {
  case Phase::connection:
    return "a connection";
  case Phase::tls_handshake:
    return "the TLS handshake";
  case Phase::answer:
    return "an answer";
  case Phase::data:
    break;
  }
  return "more data";
}

std::chrono::milliseconds wait_notice_after(const HttpRequest& request) {
  return std::clamp(request.timeout / 2, std::chrono::milliseconds(1000), k_max_wait_notice_after);
}

// Called by libcurl about once a second, data or not: tells on_wait about a long silence.
int on_progress(void* user, curl_off_t /*download_total*/, curl_off_t received,
                curl_off_t /*upload_total*/, curl_off_t /*sent*/) {
  auto& transfer = *static_cast<Transfer*>(user);
  if (util::interrupted()) {
    transfer.stop = util::interrupted_error();
    return 1; // aborts the transfer (CURLE_ABORTED_BY_CALLBACK)
  }
  const auto now = Clock::now();
  transfer.seen = phase_of(transfer, transfer.response.url);
  if (received != transfer.last_received) {
    transfer.last_received = received;
    transfer.last_change = now;
    transfer.told_waiting = false;
    return 0;
  }
  const HttpRequest& request = *transfer.request;
  const auto after = wait_notice_after(request);
  if (request.on_wait == nullptr || transfer.told_waiting || now - transfer.last_change < after) {
    return 0;
  }
  transfer.told_waiting = true;
  (*request.on_wait)(std::string("waiting for ") + waiting_for(transfer.seen) + " (" +
                     seconds_text(after) + " so far; giving up after " +
                     seconds_text(request.timeout) + ")");
  return 0;
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

// What a timed-out hop failed at: the deadline, or a stall in one of the phases.
TransportError timeout_error(const HttpRequest& request, Phase phase, bool past_deadline) {
  if (past_deadline) {
    return TransportError{"not complete after " + seconds_text(request.deadline) +
                              " (--registry-deadline)",
                          Retry::pointless};
  }
  const std::string stall = std::to_string(stall_seconds(request)) + " s";
  switch (phase) {
  case Phase::connection:
    return TransportError{"stalled: no connection after " + stall, Retry::allowed};
  case Phase::tls_handshake:
    return TransportError{"stalled: no TLS handshake after " + stall, Retry::allowed};
  case Phase::answer:
  case Phase::data:
    break;
  }
  return TransportError{"stalled: no data for " + stall, Retry::allowed};
}

Status configure(CURL* h, const HttpRequest& request, const std::string& url,
                 const curl::Headers& headers, Transfer& transfer, char* error_buffer,
                 std::chrono::milliseconds time_left) {
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
  ENVLOCK_TRY(curl::set(h, CURLOPT_TIMEOUT_MS, static_cast<long>(time_left.count()), "TIMEOUT_MS"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_SOCKOPTFUNCTION, &on_socket, "SOCKOPTFUNCTION"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_SOCKOPTDATA, static_cast<void*>(&transfer), "SOCKOPTDATA"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_NOPROGRESS, 0L, "NOPROGRESS"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_XFERINFOFUNCTION, &on_progress, "XFERINFOFUNCTION"));
  ENVLOCK_TRY(curl::set(h, CURLOPT_XFERINFODATA, static_cast<void*>(&transfer), "XFERINFODATA"));
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
                                 bool with_authorization, Clock::time_point deadline) {
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
  const auto time_left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  HttpOutcome outcome;
  if (time_left.count() <= 0) {
    outcome.transport = timeout_error(request, Phase::data, true);
    return outcome;
  }
  ENVLOCK_TRY(
      configure(easy.get(), request, url, headers, transfer, error_buffer.data(), time_left));
  const CURLcode rc = curl_easy_perform(easy.get());
  if (transfer.stop) {
    return std::move(*transfer.stop);
  }
  if (rc == CURLE_OPERATION_TIMEDOUT) {
    outcome.transport = timeout_error(request, timed_out_in(transfer, url),
                                      Clock::now() + k_deadline_slack >= deadline);
  } else if (rc != CURLE_OK && !(rc == CURLE_WRITE_ERROR && transfer.error_body_cut)) {
    std::string detail =
        error_buffer[0] != '\0' ? std::string(error_buffer.data()) : curl_easy_strerror(rc);
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

std::string seconds_text(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  if (ms % 1000 == 0) {
    return std::to_string(ms / 1000) + " s";
  }
  const auto tenths = (ms + 50) / 100;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
}

Result<HttpOutcome> perform(const HttpRequest& request) {
  auto origin = curl::origin_of(request.url);
  if (!origin) {
    return input_error("not a URL: " + redact_url(request.url));
  }
  std::string url = request.url;
  const Clock::time_point deadline = Clock::now() + request.deadline;
  for (int hop = 0;; ++hop) {
    auto here = curl::origin_of(url);
    const bool same_origin = here && *here == *origin;
    ENVLOCK_TRY_ASSIGN(HttpOutcome outcome, perform_once(request, url, same_origin, deadline));
    outcome.response.requested_url = request.url;
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
