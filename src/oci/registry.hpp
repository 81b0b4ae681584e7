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
// The config of an artifact that has none (OCI image spec 1.1): the two bytes "{}".
inline constexpr const char* oci_empty = "application/vnd.oci.empty.v1+json";
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
  std::string etag; // the ETag header, for a conditional PUT (If-Match); empty when none
};

// What a manifest PUT answered.
struct ManifestPushed {
  std::string digest;  // sha256 of the body, as the registry's Docker-Content-Digest says too
  std::string subject; // OCI-Subject: the registry processed the manifest's subject (it has the
                       // referrers API); empty when it did not say so
  bool precondition_failed = false; // HTTP 412 to an If-Match: the manifest changed meanwhile
};

// How much one referrers listing may take as a whole, every page together (docs/manual/attest.md):
// going past one is an environment error naming the limit and the redacted URL.
struct ReferrersLimits {
  std::size_t entries = 1000;                     // descriptors, duplicates included
  std::uint64_t bytes = std::uint64_t{16} << 20U; // page bodies
  int pages = 64;
  std::chrono::seconds seconds{120}; // from the first request to the last page's end
};

// The referrers API's answer for one subject: every page joined into one image index.
struct ReferrersAnswer {
  std::string index;             // {"schemaVersion":2,"mediaType":...,"manifests":[...]}
  bool filtered_by_type = false; // OCI-Filters-Applied names artifactType
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

  // The manifest at `reference`, or nothing when the registry answers 404 (no such tag or
  // digest); errors as get_manifest's, without the tag list.
  Result<std::optional<ManifestResponse>> find_manifest(const ImageRef& image,
                                                        std::string_view reference);

  // Uploads `data` as a blob of `image`'s repository (POST, then PUT with its digest), unless a
  // HEAD finds it there already. Returns its digest. Errors name the redacted URL and status.
  Result<std::string> push_blob(const ImageRef& image, std::string_view data);

  // PUT /v2/<repo>/manifests/<reference> of `body` as `media_type`; with `if_match`, only if the
  // manifest there still has that ETag (HTTP 412 is a value, not an error). An environment error
  // when the registry's Docker-Content-Digest is not the body's sha256.
  Result<ManifestPushed> put_manifest(const ImageRef& image, std::string_view reference,
                                      std::string_view media_type, std::string_view body,
                                      std::string_view if_match = {});

  // GET /v2/<repo>/referrers/<digest> (with ?artifactType= when `artifact_type` is given),
  // following Link: rel="next" pages. Nothing when the registry answers 404: it has no
  // referrers API (OCI distribution spec 1.1), and the referrers tag schema is the fallback.
  // The listing as a whole is bounded by `limits`.
  Result<std::optional<ReferrersAnswer>> get_referrers(const ImageRef& image,
                                                       std::string_view digest,
                                                       std::string_view artifact_type = {},
                                                       const ReferrersLimits& limits = {});

private:
  Result<Resolved> resolve_unscrubbed(const ImageRef& image, std::string_view platform);

  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// A URL with any user:password@ part and any query values for token/password-like keys removed.
std::string redact_url(std::string_view url);

} // namespace envlock::oci
