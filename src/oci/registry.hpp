// A client for the OCI distribution API over libcurl: manifests (always with the full Accept
// list), blobs (digest checked while streaming), Bearer-token and basic auth, retries with backoff
// on 5xx/429/timeouts. No credential, token or password ever appears in an error or a log line:
// URLs are printed redacted.
#pragma once

#include "oci/image_ref.hpp"
#include "util/result.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::oci {

namespace media_type {
inline constexpr const char* oci_index = "application/vnd.oci.image.index.v1+json";
inline constexpr const char* oci_manifest = "application/vnd.oci.image.manifest.v1+json";
inline constexpr const char* docker_list =
    "application/vnd.docker.distribution.manifest.list.v2+json";
inline constexpr const char* docker_manifest =
    "application/vnd.docker.distribution.manifest.v2+json";
} // namespace media_type

struct RegistryOptions {
  std::vector<std::string> insecure_registries; // host[:port] allowed over plain HTTP
  std::string ca_file;                          // extra CA certificates (PEM)
  int max_attempts = 4;                         // per request, for retryable failures
  std::chrono::milliseconds timeout{30000};     // stall timeout per request
  std::chrono::milliseconds deadline{300000};   // a whole request (blobs: more, by their size)
  std::chrono::milliseconds backoff{500};       // first retry delay; doubles each retry
  // Told what a request waits for and each retry ("GET URL: HTTP 503; attempt 2 of 4 after
  // 0.5 s"); the command line sets it when standard error is a terminal. Empty: silent.
  std::function<void(const std::string&)> notice;
  // Credential sources; empty means the defaults (~/.docker/config.json,
  // $ENROOT_CONFIG_PATH/.credentials or ~/.config/enroot/.credentials, and the environment
  // variables ENVLOCK_REGISTRY_USER / ENVLOCK_REGISTRY_PASSWORD).
  std::string docker_config;
  std::string enroot_credentials;
};

struct ManifestResponse {
  std::string media_type; // Content-Type as returned
  std::string digest;     // sha256 of the body (checked against the reference when it is one)
  std::string body;
};

// What a manifest HEAD request answered for a manifest that exists.
struct ManifestHead {
  std::string media_type; // Content-Type as returned
  std::string digest;     // Docker-Content-Digest, when the registry sent one
  std::uint64_t size = 0; // Content-Length
};

// Where a reference resolved to.
struct Resolved {
  std::string digest;            // what the reference points to (index digest for multi-arch)
  std::string media_type;        // of that document
  std::string platform_digest;   // the manifest for the requested platform
  std::string platform_manifest; // its body (JSON)
};

class RegistryClient {
public:
  explicit RegistryClient(RegistryOptions options);
  ~RegistryClient();
  RegistryClient(const RegistryClient&) = delete;
  RegistryClient& operator=(const RegistryClient&) = delete;

  // GET /v2/<repo>/manifests/<reference> with the full Accept list. Network failures are
  // environment errors (exit 3) naming the redacted URL, the HTTP status and the attempt count;
  // a 404 for a tag is an input error that also lists the repository's tags. No error shows a
  // secret the client knows (Session::scrub).
  Result<ManifestResponse> get_manifest(const ImageRef& image, std::string_view reference);

  // HEAD /v2/<repo>/manifests/<reference> with the full Accept list: whether the registry still
  // serves the manifest, without downloading it. Nothing when it answers 404 (the manifest or
  // the repository is unknown: deleted or garbage-collected); an environment error (exit 3) for
  // any other failure, or when the registry's Docker-Content-Digest differs from a digest asked
  // for ("manifest sha256:A: the registry answers for sha256:B").
  Result<std::optional<ManifestHead>> head_manifest(const ImageRef& image,
                                                    std::string_view reference);

  // Resolves `image` (tag or digest) and selects the manifest for `platform` ("linux/amd64",
  // "linux/arm64/v8") when the answer is an index.
  Result<Resolved> resolve(const ImageRef& image, std::string_view platform);

  // Streams blob `digest` to `sink`, checking size and digest while streaming: more bytes than
  // `size` (the descriptor's; 64 MiB when it gives none) stop the download with "blob DIGEST:
  // more than N bytes, the size its descriptor gives (GET URL)"; a digest mismatch is an error
  // that names the digest (the sink has then seen bad bytes: the caller discards them). The
  // request deadline grows by one second per MiB of `size`.
  Result<void> fetch_blob(const ImageRef& image, std::string_view digest,
                          std::optional<std::uint64_t> size,
                          const std::function<Status(std::string_view)>& sink);

private:
  Result<Resolved> resolve_unscrubbed(const ImageRef& image, std::string_view platform);

  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// A URL with any user:password@ part and any query values for token/password-like keys removed.
std::string redact_url(std::string_view url);

} // namespace envlock::oci
