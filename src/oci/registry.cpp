// RegistryClient: manifests, resolution to a platform, blobs and pushes over a Session.
#include "oci/registry.hpp"

#include "oci/platform.hpp"
#include "oci/session.hpp"
#include "util/sha256.hpp"

#include <nlohmann/json.hpp>

namespace envlock::oci {

namespace {

constexpr std::size_t k_manifest_limit = std::size_t{4} << 20U;

std::string accept_header() {
  return std::string("Accept: ") + media_type::oci_index + ", " + media_type::oci_manifest + ", " +
         media_type::docker_list + ", " + media_type::docker_manifest;
}

AuthScope pull_scope(const ImageRef& image) {
  return {image.registry, "repository:" + image.repository + ":pull"};
}

std::string header(const HttpResponse& response, const char* name) {
  const auto it = response.headers.find(name);
  return it == response.headers.end() ? std::string() : it->second;
}

// The media type without parameters, from Content-Type or else the document's mediaType.
std::string effective_media_type(const std::string& content_type, const nlohmann::json& doc) {
  std::string type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && type.back() == ' ') {
    type.pop_back();
  }
  const bool generic = type.empty() || type == "application/json" || type == "text/plain" ||
                       type == "application/octet-stream";
  if (generic && doc.is_object() && doc.contains("mediaType") && doc["mediaType"].is_string()) {
    return doc["mediaType"].get<std::string>();
  }
  return type;
}

bool is_index(std::string_view type) {
  return type == media_type::oci_index || type == media_type::docker_list;
}

bool is_manifest(std::string_view type) {
  return type == media_type::oci_manifest || type == media_type::docker_manifest;
}

Result<nlohmann::json> parse_document(const std::string& body, const std::string& what) {
  auto doc = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) {
    return env_error(what + ": not a JSON object");
  }
  return doc;
}

} // namespace

struct RegistryClient::Impl {
  explicit Impl(RegistryOptions options) : session(std::move(options)) {}

  [[nodiscard]] std::string url(const ImageRef& image, std::string_view kind,
                                std::string_view reference) const {
    return session.base_url(image.registry) + "/v2/" + image.repository + "/" + std::string(kind) +
           "/" + std::string(reference);
  }

  // Checks that the image config of a single-platform manifest is for `wanted`, when it says.
  Status check_config_platform(RegistryClient& client, const ImageRef& image,
                               const nlohmann::json& manifest, const Platform& wanted);

  Session session;
};

RegistryClient::RegistryClient(RegistryOptions options)
    : m_impl(std::make_unique<Impl>(std::move(options))) {}

RegistryClient::~RegistryClient() = default;

Result<ManifestResponse> RegistryClient::get_manifest(const ImageRef& image,
                                                      std::string_view reference) {
  HttpRequest request;
  request.url = m_impl->url(image, "manifests", reference);
  request.headers = {accept_header()};
  request.body_limit = k_manifest_limit;
  request.timeout = m_impl->session.options().timeout;
  request.ca_file = m_impl->session.options().ca_file;
  ENVLOCK_TRY_ASSIGN(const HttpResponse response, m_impl->session.send(request, pull_scope(image)));
  if (response.status != 200) {
    return http_status_error(request, response);
  }
  ManifestResponse out;
  out.media_type = header(response, "content-type");
  out.digest = "sha256:" + util::sha256_hex(response.body);
  out.body = response.body;
  if (is_valid_digest(reference) && out.digest != reference) {
    return env_error("manifest " + std::string(reference) + ": digest mismatch (got " + out.digest +
                     ")");
  }
  return out;
}

Result<std::optional<ManifestHead>> RegistryClient::head_manifest(const ImageRef& image,
                                                                  std::string_view reference) {
  HttpRequest request;
  request.method = "HEAD";
  request.url = m_impl->url(image, "manifests", reference);
  request.headers = {accept_header()};
  request.body_limit = k_manifest_limit;
  request.timeout = m_impl->session.options().timeout;
  request.ca_file = m_impl->session.options().ca_file;
  ENVLOCK_TRY_ASSIGN(const HttpResponse response, m_impl->session.send(request, pull_scope(image)));
  if (response.status == 404) {
    return std::optional<ManifestHead>();
  }
  if (response.status != 200) {
    return env_error(http_status_error(request, response).message);
  }
  ManifestHead out;
  out.media_type = header(response, "content-type");
  out.digest = header(response, "docker-content-digest");
  const std::string length = header(response, "content-length");
  if (!length.empty() && length.find_first_not_of("0123456789") == std::string::npos &&
      length.size() < 20) {
    out.size = std::stoull(length);
  }
  if (is_valid_digest(reference) && !out.digest.empty() && out.digest != reference) {
    return env_error("manifest " + std::string(reference) + ": the registry answers for " +
                     out.digest);
  }
  return std::optional<ManifestHead>(std::move(out));
}

Result<Resolved> RegistryClient::resolve(const ImageRef& image, std::string_view platform) {
  ENVLOCK_TRY_ASSIGN(const Platform wanted, parse_platform(platform));
  const std::string name = image.to_string();
  ENVLOCK_TRY_ASSIGN(const ManifestResponse top, get_manifest(image, image.reference()));
  ENVLOCK_TRY_ASSIGN(const nlohmann::json doc, parse_document(top.body, "manifest of " + name));
  Resolved out;
  out.digest = top.digest;
  out.media_type = effective_media_type(top.media_type, doc);
  if (is_manifest(out.media_type)) {
    out.platform_digest = top.digest;
    out.platform_manifest = top.body;
    ENVLOCK_TRY(m_impl->check_config_platform(*this, image, doc, wanted));
    return out;
  }
  if (!is_index(out.media_type)) {
    return input_error(name + ": unsupported manifest media type '" + out.media_type + "'");
  }
  ENVLOCK_TRY_ASSIGN(const IndexEntry entry, select_platform(doc, wanted, name));
  ENVLOCK_TRY_ASSIGN(const ManifestResponse chosen, get_manifest(image, entry.digest));
  ENVLOCK_TRY_ASSIGN(const nlohmann::json chosen_doc,
                     parse_document(chosen.body, "manifest " + entry.digest));
  const std::string chosen_type = effective_media_type(chosen.media_type, chosen_doc);
  if (!is_manifest(chosen_type)) {
    return input_error(name + ": the " + wanted.to_string() + " entry " + entry.digest + " is a '" +
                       chosen_type + "', not an image manifest");
  }
  out.platform_digest = chosen.digest;
  out.platform_manifest = chosen.body;
  return out;
}

Status RegistryClient::Impl::check_config_platform(RegistryClient& client, const ImageRef& image,
                                                   const nlohmann::json& manifest,
                                                   const Platform& wanted) {
  if (!manifest.contains("config") || !manifest["config"].is_object() ||
      !manifest["config"].contains("digest") || !manifest["config"]["digest"].is_string()) {
    return env_error("manifest of " + image.to_string() + ": no config digest");
  }
  const std::string digest = manifest["config"]["digest"].get<std::string>();
  std::string config_text;
  const auto sink = [&](std::string_view chunk) -> Status {
    if (config_text.size() + chunk.size() > k_manifest_limit) {
      return env_error("config " + digest + ": larger than " + std::to_string(k_manifest_limit) +
                       " bytes");
    }
    config_text.append(chunk);
    return {};
  };
  ENVLOCK_TRY(client.fetch_blob(image, digest, sink));
  ENVLOCK_TRY_ASSIGN(const nlohmann::json config, parse_document(config_text, "config " + digest));
  const auto field = [&](const char* key) {
    return config.contains(key) && config[key].is_string() ? config[key].get<std::string>()
                                                           : std::string();
  };
  const Platform offered{field("os"), field("architecture"), field("variant")};
  if (offered.os.empty() || offered.architecture.empty() || platform_matches(wanted, offered)) {
    return {};
  }
  return input_error(image.to_string() + " is a single-platform image for " + offered.to_string() +
                     ", not " + wanted.to_string());
}

Result<void> RegistryClient::fetch_blob(const ImageRef& image, std::string_view digest,
                                        const std::function<Status(std::string_view)>& sink) {
  if (!is_valid_digest(digest)) {
    return input_error("invalid blob digest '" + std::string(digest) + "'");
  }
  util::Sha256 hash;
  const Sink checked = [&](std::string_view chunk) -> Status {
    hash.update(chunk);
    return sink(chunk);
  };
  HttpRequest request;
  request.url = m_impl->url(image, "blobs", digest);
  request.sink = &checked;
  request.timeout = m_impl->session.options().timeout;
  request.ca_file = m_impl->session.options().ca_file;
  ENVLOCK_TRY_ASSIGN(const HttpResponse response, m_impl->session.send(request, pull_scope(image)));
  if (response.status != 200) {
    return http_status_error(request, response);
  }
  const std::string got = "sha256:" + hash.finish_hex();
  if (got != digest) {
    return env_error("blob " + std::string(digest) + ": digest mismatch (got " + got + ")");
  }
  return {};
}

} // namespace envlock::oci
