// One HTTP exchange over libcurl. Redirects are followed here rather than by libcurl, so that the
// Authorization header is only ever sent to the origin it was meant for.
#pragma once

#include "util/result.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::oci {

using Sink = std::function<Status(std::string_view)>;
// Told, once per silence, what a request is waiting for ("the TLS handshake (5 s so far; giving
// up after 30 s)").
using WaitNotice = std::function<void(const std::string&)>;

// The most bytes kept of a 2xx body that goes to no sink, unless HttpRequest::body_limit says.
inline constexpr std::size_t k_default_body_limit = std::size_t{4} << 20U;
// The most bytes kept of an error body (4xx, 5xx); the transfer stops there.
inline constexpr std::size_t k_error_body_limit = std::size_t{64} * 1024;
// The most bytes of response headers one hop may send.
inline constexpr std::size_t k_header_limit = std::size_t{1} << 20U;

enum class Redirects { follow, refuse };

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  std::vector<std::string> headers; // "Name: value" lines, sent to every hop
  std::string authorization;        // the Authorization value; sent to the first origin only
  std::string_view body;            // for PUT and POST
  std::string ca_file;              // extra CA bundle; empty: the system's
  std::chrono::milliseconds timeout{30000};      // connect timeout and stall limit
  std::chrono::milliseconds deadline{300000};    // the whole request, redirects included
  std::size_t body_limit = k_default_body_limit; // the most bytes of a 2xx body kept
  const Sink* sink = nullptr; // a 2xx body goes here instead of into HttpResponse::body
  std::uint64_t skip = 0;     // leading body bytes not passed to the sink (resumed tries)
  Redirects redirects = Redirects::follow;
  const WaitNotice* on_wait = nullptr; // told when a hop is silent for a while
};

struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers; // of the last hop; names in lowercase
  std::string body;                           // error bodies too (cut at k_error_body_limit)
  std::string url;                            // of the last hop
  std::string requested_url;                  // of the first hop: the URL the request used
  std::uint64_t body_bytes = 0;               // body bytes received, skipped ones included
  std::uint64_t sink_end = 0;                 // body offset up to which the sink has the bytes
};

enum class Retry { allowed, pointless };

// A failure below HTTP: no connection, TLS, a stall, a truncated body.
struct TransportError {
  std::string message; // libcurl's explanation
  Retry retry = Retry::pointless;
  bool plain_http = false; // a TLS handshake answered in plain HTTP (OpenSSL's "wrong version")
};

struct HttpOutcome {
  HttpResponse response;
  std::optional<TransportError> transport; // set when no complete response arrived
};

// "30 s", "0.5 s": whole seconds, else tenths.
std::string seconds_text(std::chrono::milliseconds duration);

// Performs `request`. Transport failures are values in HttpOutcome (a stall: "stalled: no data
// for N s", "stalled: no TLS handshake after N s"; the deadline: "not complete after N s
// (--registry-deadline)", not worth retrying); the error side carries what must stop at once:
// libcurl setup failures, a sink error, a 2xx body over `body_limit`, headers over
// k_header_limit (environment errors naming the redacted URL). An error body longer than
// k_error_body_limit is cut there and the response is complete.
Result<HttpOutcome> perform(const HttpRequest& request);

} // namespace envlock::oci
