// RegistryClient's push side: blobs, manifests (conditional with If-Match), the referrers API,
// and the manifest lookup that tells 404 from a failure.
#include "oci/curl.hpp"
#include "oci/registry_impl.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

namespace envlock::oci {

namespace {

constexpr std::size_t k_push_manifest_limit = std::size_t{4} << 20U;

std::string push_accept_header() {
  return std::string("Accept: ") + media_type::oci_index + ", " + media_type::oci_manifest + ", " +
         media_type::docker_list + ", " + media_type::docker_manifest;
}

AuthScope push_scope(const ImageRef& image) {
  return {image.registry, "repository:" + image.repository + ":pull,push"};
}

AuthScope referrers_pull_scope(const ImageRef& image) {
  return {image.registry, "repository:" + image.repository + ":pull"};
}

std::string response_header(const HttpResponse& response, const char* name) {
  const auto it = response.headers.find(name);
  return it == response.headers.end() ? std::string() : it->second;
}

// The URL of Link: <URL>; rel="next", resolved against `base`; empty when there is none.
std::string next_link(const HttpResponse& response, const std::string& base) {
  const std::string link = response_header(response, "link");
  const auto open = link.find('<');
  const auto close = link.find('>', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos ||
      link.find("rel=\"next\"", close) == std::string::npos) {
    return {};
  }
  auto url = curl::resolve_url(base, link.substr(open + 1, close - open - 1));
  return url ? *url : std::string();
}

} // namespace

Result<std::optional<ManifestResponse>> RegistryClient::find_manifest(const ImageRef& image,
                                                                      std::string_view reference) {
  HttpRequest request = m_impl->request(m_impl->url(image, "manifests", reference));
  request.headers = {push_accept_header()};
  request.body_limit = k_push_manifest_limit;
  auto sent = m_impl->scrubbed(m_impl->session.send(request, referrers_pull_scope(image)));
  if (!sent) {
    return std::move(sent).error();
  }
  if (sent->status == 404) {
    return std::optional<ManifestResponse>();
  }
  if (sent->status != 200) {
    return env_error(m_impl->session.status_error(request, *sent).message);
  }
  ManifestResponse out;
  out.media_type = response_header(*sent, "content-type");
  out.digest = "sha256:" + util::sha256_hex(sent->body);
  out.body = sent->body;
  out.etag = response_header(*sent, "etag");
  if (is_valid_digest(reference) && out.digest != reference) {
    return env_error("manifest " + std::string(reference) + ": digest mismatch (got " + out.digest +
                     ")");
  }
  return std::optional<ManifestResponse>(std::move(out));
}

Result<std::string> RegistryClient::push_blob(const ImageRef& image, std::string_view data) {
  const std::string digest = "sha256:" + util::sha256_hex(data);
  Session& session = m_impl->session;
  HttpRequest head = m_impl->request(m_impl->url(image, "blobs", digest));
  head.method = "HEAD";
  ENVLOCK_TRY_ASSIGN(const HttpResponse found,
                     m_impl->scrubbed(session.send(head, push_scope(image))));
  if (found.status == 200) {
    return digest;
  }
  HttpRequest start = m_impl->request(session.base_url(image.registry) + "/v2/" + image.repository +
                                      "/blobs/uploads/");
  start.method = "POST";
  start.body = std::string_view(""); // an empty body, not none: libcurl must not read stdin
  ENVLOCK_TRY_ASSIGN(const HttpResponse started,
                     m_impl->scrubbed(session.send(start, push_scope(image))));
  if (started.status != 202) {
    return env_error(session.status_error(start, started).message);
  }
  const std::string location = response_header(started, "location");
  if (location.empty()) {
    return env_error("POST " + redact_url(start.url) + ": HTTP 202 without a Location header");
  }
  ENVLOCK_TRY_ASSIGN(std::string upload, curl::resolve_url(started.url, location));
  upload += (upload.find('?') == std::string::npos ? "?" : "&") + std::string("digest=") +
            util::replace_all(digest, ":", "%3A");
  HttpRequest put = m_impl->request(upload);
  put.method = "PUT";
  put.headers = {"Content-Type: application/octet-stream"};
  put.body = data;
  ENVLOCK_TRY_ASSIGN(const HttpResponse stored,
                     m_impl->scrubbed(session.send(put, push_scope(image))));
  if (stored.status != 201) {
    return env_error(session.status_error(put, stored).message);
  }
  return digest;
}

Result<ManifestPushed> RegistryClient::put_manifest(const ImageRef& image,
                                                    std::string_view reference,
                                                    std::string_view media_type,
                                                    std::string_view body,
                                                    std::string_view if_match) {
  Session& session = m_impl->session;
  HttpRequest put = m_impl->request(m_impl->url(image, "manifests", reference));
  put.method = "PUT";
  put.headers = {"Content-Type: " + std::string(media_type)};
  if (!if_match.empty()) {
    put.headers.push_back("If-Match: " + std::string(if_match));
  }
  put.body = body;
  ENVLOCK_TRY_ASSIGN(const HttpResponse answer,
                     m_impl->scrubbed(session.send(put, push_scope(image))));
  ManifestPushed out;
  out.digest = "sha256:" + util::sha256_hex(body);
  if (answer.status == 412) {
    out.precondition_failed = true;
    return out;
  }
  if (answer.status != 201) {
    return env_error(session.status_error(put, answer).message);
  }
  const std::string said = response_header(answer, "docker-content-digest");
  if (!said.empty() && said != out.digest) {
    return env_error("PUT " + redact_url(put.url) + ": the registry stored " +
                     session.scrub(printable_server_text(said)) + ", not " + out.digest);
  }
  out.subject = response_header(answer, "oci-subject");
  return out;
}

Result<std::optional<ReferrersAnswer>>
RegistryClient::get_referrers(const ImageRef& image, std::string_view digest,
                              std::string_view artifact_type, const ReferrersLimits& limits) {
  if (!is_valid_digest(digest)) {
    return input_error("invalid digest '" + std::string(digest) + "'");
  }
  Session& session = m_impl->session;
  std::string url = m_impl->url(image, "referrers", digest);
  if (!artifact_type.empty()) {
    url += "?artifactType=" + util::replace_all(std::string(artifact_type), "+", "%2B");
  }
  nlohmann::json manifests = nlohmann::json::array();
  ReferrersAnswer out;
  const auto deadline = std::chrono::steady_clock::now() + limits.seconds;
  std::uint64_t bytes = 0;
  const auto over = [&](const std::string& at, const std::string& what) {
    return env_error("GET " + redact_url(at) + ": the referrers listing is over its limit of " +
                     what + " (docs/manual/attest.md)");
  };
  for (int page = 0; !url.empty(); ++page) {
    if (page == limits.pages) {
      return over(url, std::to_string(limits.pages) + " pages");
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return over(url, std::to_string(limits.seconds.count()) + " seconds");
    }
    HttpRequest request = m_impl->request(url);
    request.headers = {std::string("Accept: ") + media_type::oci_index};
    request.body_limit = k_push_manifest_limit;
    request.deadline = std::min(request.deadline, left);
    auto sent = m_impl->scrubbed(session.send(request, referrers_pull_scope(image)));
    if (!sent && std::chrono::steady_clock::now() >= deadline) {
      // A page that stalled until the listing's time ran out: the limit is the reason.
      return over(url, std::to_string(limits.seconds.count()) + " seconds");
    }
    ENVLOCK_TRY_ASSIGN(const HttpResponse answer, std::move(sent));
    if (answer.status == 404 && page == 0) {
      return std::optional<ReferrersAnswer>();
    }
    if (answer.status != 200) {
      return env_error(session.status_error(request, answer).message);
    }
    bytes += answer.body.size();
    if (bytes > limits.bytes) {
      return over(answer.url, std::to_string(limits.bytes) + " bytes");
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return over(answer.url, std::to_string(limits.seconds.count()) + " seconds");
    }
    const auto doc = nlohmann::json::parse(answer.body, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object() || !doc.contains("manifests") || !doc["manifests"].is_array()) {
      return env_error("GET " + redact_url(request.url) + ": not an image index");
    }
    if (manifests.size() + doc["manifests"].size() > limits.entries) {
      return over(answer.url, std::to_string(limits.entries) + " entries");
    }
    for (const auto& entry : doc["manifests"]) {
      manifests.push_back(entry);
    }
    if (util::to_lower(response_header(answer, "oci-filters-applied")).find("artifacttype") !=
        std::string::npos) {
      out.filtered_by_type = true;
    }
    url = next_link(answer, answer.url);
  }
  out.index =
      nlohmann::json(
          {{"schemaVersion", 2}, {"mediaType", media_type::oci_index}, {"manifests", manifests}})
          .dump();
  return std::optional<ReferrersAnswer>(std::move(out));
}

} // namespace envlock::oci
