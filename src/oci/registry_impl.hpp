// The state behind oci::RegistryClient, shared by the files that define its members
// (registry.cpp: pulls; registry_push.cpp: pushes and referrers). Not for other modules.
#pragma once

#include "oci/http.hpp"
#include "oci/platform.hpp"
#include "oci/registry.hpp"
#include "oci/session.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace envlock::oci {

struct RegistryClient::Impl {
  explicit Impl(RegistryOptions options) : session(std::move(options)) {}

  // A GET of `url` with the session's timeouts and CA file.
  [[nodiscard]] HttpRequest request(std::string url) const {
    HttpRequest out;
    out.url = std::move(url);
    out.timeout = session.options().timeout;
    out.deadline = session.options().deadline;
    out.ca_file = session.options().ca_file;
    return out;
  }

  // `result`, its error message scrubbed of every secret the session knows: registry text
  // (error codes, media types, platforms, libcurl's messages) reaches it.
  template <typename T> Result<T> scrubbed(Result<T> result) {
    if (!result) {
      result.error().message = session.scrub(result.error().message);
    }
    return result;
  }

  // The tags of `image`'s repository, for a 404 of a tag: "; tags of REPO: a, b" or why there
  // are none, as `skopeo list-tags` would list them (GET /v2/REPO/tags/list, bounded).
  std::string tags_hint(const ImageRef& image);

  Result<ManifestResponse> get_manifest(const ImageRef& image, std::string_view reference);
  Result<void> fetch_blob(const ImageRef& image, std::string_view digest,
                          std::optional<std::uint64_t> size, const Sink& sink);

  [[nodiscard]] std::string url(const ImageRef& image, std::string_view kind,
                                std::string_view reference) const {
    return session.base_url(image.registry) + "/v2/" + image.repository + "/" + std::string(kind) +
           "/" + std::string(reference);
  }

  // Checks that the image config of a single-platform manifest is for `wanted`, when it says.
  Status check_config_platform(const ImageRef& image, const nlohmann::json& manifest,
                               const Platform& wanted);

  Session session;
};

} // namespace envlock::oci
