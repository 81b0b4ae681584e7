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

enum class Redirects { follow, refuse };

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  std::vector<std::string> headers; // "Name: value" lines, sent to every hop
  std::string authorization;        // the Authorization value; sent to the first origin only
  std::string_view body;            // for PUT and POST
  std::string ca_file;              // extra CA bundle; empty: the system's
  std::chrono::milliseconds timeout{30000}; // connect timeout and stall limit
  std::size_t body_limit = 0;               // the most bytes of body kept (0: no limit)
  const Sink* sink = nullptr; // a 2xx body goes here instead of into HttpResponse::body
  std::uint64_t skip = 0;     // leading body bytes not passed to the sink (resumed tries)
  Redirects redirects = Redirects::follow;
};

struct HttpResponse {
  long status = 0;
  std::map<std::string, std::string> headers; // of the last hop; names in lowercase
  std::string body;                           // error bodies too (at most 64 KiB then)
  std::string url;                            // of the last hop
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

// Performs `request`. Transport failures are values in HttpOutcome; the error side carries what
// must stop at once: libcurl setup failures, a sink error, a body over `body_limit` (environment
// errors naming the redacted URL).
Result<HttpOutcome> perform(const HttpRequest& request);

} // namespace envlock::oci
