// RegistryClient: manifests, resolution to a platform, blobs and pushes over a Session.
#include "oci/registry.hpp"

#include "oci/platform.hpp"
#include "oci/registry_impl.hpp"
#include "util/sha256.hpp"

#include <nlohmann/json.hpp>

namespace envlock::oci {

namespace {

constexpr std::size_t k_manifest_limit = std::size_t{4} << 20U;
constexpr std::size_t k_tags_list_limit = std::size_t{1} << 20U;
constexpr std::size_t k_tags_shown = 30;
// The bound of a blob whose descriptor gives no size (an image config).
constexpr std::uint64_t k_unsized_blob_limit = std::uint64_t{64} << 20U;
// A blob's deadline grows by one second per this many bytes.
constexpr std::uint64_t k_blob_deadline_rate = std::uint64_t{1} << 20U;

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

RegistryClient::RegistryClient(RegistryOptions options)
    : m_impl(std::make_unique<Impl>(std::move(options))) {}

RegistryClient::~RegistryClient() = default;

Result<ManifestResponse> RegistryClient::get_manifest(const ImageRef& image,
                                                      std::string_view reference) {
  return m_impl->scrubbed(m_impl->get_manifest(image, reference));
}

Result<ManifestResponse> RegistryClient::Impl::get_manifest(const ImageRef& image,
                                                            std::string_view reference) {
  HttpRequest request = this->request(url(image, "manifests", reference));
  request.headers = {accept_header()};
  request.body_limit = k_manifest_limit;
  ENVLOCK_TRY_ASSIGN(const HttpResponse response, session.send(request, pull_scope(image)));
  if (response.status == 404 && !is_valid_digest(reference)) {
    Error error = session.status_error(request, response);
    error.message += tags_hint(image);
    return error;
  }
  if (response.status != 200) {
    return session.status_error(request, response);
  }
  ManifestResponse out;
  out.media_type = header(response, "content-type");
  out.digest = "sha256:" + util::sha256_hex(response.body);
  out.body = response.body;
  out.etag = header(response, "etag");
  if (is_valid_digest(reference) && out.digest != reference) {
    return env_error("manifest " + std::string(reference) + ": digest mismatch (got " + out.digest +
                     ")");
  }
  return out;
}

Result<std::optional<ManifestHead>> RegistryClient::head_manifest(const ImageRef& image,
                                                                  std::string_view reference) {
  HttpRequest request = m_impl->request(m_impl->url(image, "manifests", reference));
  request.method = "HEAD";
  request.headers = {accept_header()};
  request.body_limit = k_manifest_limit;
  auto sent = m_impl->scrubbed(m_impl->session.send(request, pull_scope(image)));
  if (!sent) {
    return std::move(sent).error();
  }
  const HttpResponse& response = *sent;
  if (response.status == 404) {
    return std::optional<ManifestHead>();
  }
  if (response.status != 200) {
    return env_error(m_impl->session.status_error(request, response).message);
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
                     m_impl->session.scrub(printable_server_text(out.digest)));
  }
  return std::optional<ManifestHead>(std::move(out));
}

Result<Resolved> RegistryClient::resolve(const ImageRef& image, std::string_view platform) {
  return m_impl->scrubbed(resolve_unscrubbed(image, platform));
}

Result<Resolved> RegistryClient::resolve_unscrubbed(const ImageRef& image,
                                                    std::string_view platform) {
  ENVLOCK_TRY_ASSIGN(const Platform wanted, parse_platform(platform));
  const std::string name = image.to_string();
  ENVLOCK_TRY_ASSIGN(const ManifestResponse top, m_impl->get_manifest(image, image.reference()));
  ENVLOCK_TRY_ASSIGN(const nlohmann::json doc, parse_document(top.body, "manifest of " + name));
  Resolved out;
  out.digest = top.digest;
  out.media_type = effective_media_type(top.media_type, doc);
  if (is_manifest(out.media_type)) {
    out.platform_digest = top.digest;
    out.platform_manifest = top.body;
    ENVLOCK_TRY(m_impl->check_config_platform(image, doc, wanted));
    return out;
  }
  if (!is_index(out.media_type)) {
    return input_error(name + ": unsupported manifest media type '" + out.media_type + "'");
  }
  ENVLOCK_TRY_ASSIGN(const IndexEntry entry, select_platform(doc, wanted, name));
  ENVLOCK_TRY_ASSIGN(const ManifestResponse chosen, m_impl->get_manifest(image, entry.digest));
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

Status RegistryClient::Impl::check_config_platform(const ImageRef& image,
                                                   const nlohmann::json& manifest,
                                                   const Platform& wanted) {
  if (!manifest.contains("config") || !manifest["config"].is_object() ||
      !manifest["config"].contains("digest") || !manifest["config"]["digest"].is_string()) {
    return env_error("manifest of " + image.to_string() + ": no config digest");
  }
  const std::string digest = manifest["config"]["digest"].get<std::string>();
  std::optional<std::uint64_t> size;
  if (const auto& field = manifest["config"].value("size", nlohmann::json());
      field.is_number_unsigned()) {
    size = field.get<std::uint64_t>();
  }
  std::string config_text;
  const auto sink = [&](std::string_view chunk) -> Status {
    if (config_text.size() + chunk.size() > k_manifest_limit) {
      return env_error("config " + digest + ": larger than " + std::to_string(k_manifest_limit) +
                       " bytes");
    }
    config_text.append(chunk);
    return {};
  };
  ENVLOCK_TRY(fetch_blob(image, digest, size, sink));
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
                                        std::optional<std::uint64_t> size,
                                        const std::function<Status(std::string_view)>& sink) {
  return m_impl->scrubbed(m_impl->fetch_blob(image, digest, size, sink));
}

Result<void> RegistryClient::Impl::fetch_blob(const ImageRef& image, std::string_view digest,
                                              std::optional<std::uint64_t> size, const Sink& sink) {
  if (!is_valid_digest(digest)) {
    return input_error("invalid blob digest '" + std::string(digest) + "'");
  }
  HttpRequest request = this->request(url(image, "blobs", digest));
  const std::uint64_t limit = size.value_or(k_unsized_blob_limit);
  // A large blob may take longer than the deadline: one more second per MiB it holds.
  request.deadline += std::chrono::seconds(limit / k_blob_deadline_rate);
  util::Sha256 hash;
  std::uint64_t received = 0;
  const Sink checked = [&](std::string_view chunk) -> Status {
    if (received + chunk.size() > limit) {
      return env_error("blob " + std::string(digest) + ": more than " + std::to_string(limit) +
                       (size ? " bytes, the size its descriptor gives" : " bytes") + " (GET " +
                       redact_url(request.url) + ")");
    }
    received += chunk.size();
    hash.update(chunk);
    return sink(chunk);
  };
  request.sink = &checked;
  ENVLOCK_TRY_ASSIGN(const HttpResponse response, session.send(request, pull_scope(image)));
  if (response.status != 200) {
    return session.status_error(request, response);
  }
  const std::string got = "sha256:" + hash.finish_hex();
  if (got != digest) {
    return env_error("blob " + std::string(digest) + ": digest mismatch (got " + got + ")");
  }
  return {};
}

std::string RegistryClient::Impl::tags_hint(const ImageRef& image) {
  HttpRequest request =
      this->request(session.base_url(image.registry) + "/v2/" + image.repository + "/tags/list");
  request.body_limit = k_tags_list_limit;
  auto sent = session.send(request, pull_scope(image));
  if (!sent) {
    return "; no tag list (" + sent.error().message + ")";
  }
  if (sent->status != 200) {
    return "; " + session.status_error(request, *sent).message;
  }
  const auto doc = nlohmann::json::parse(sent->body, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || !doc.contains("tags") ||
      !(doc["tags"].is_array() || doc["tags"].is_null())) {
    return "; no tag list (GET " + redact_url(sent->requested_url) + ": not a tag list)";
  }
  std::vector<std::string> tags;
  std::size_t more = 0;
  for (const auto& tag : doc["tags"].is_array() ? doc["tags"] : nlohmann::json::array()) {
    if (!tag.is_string() || !is_valid_tag(tag.get<std::string>())) {
      continue;
    }
    if (tags.size() == k_tags_shown) {
      ++more;
    } else {
      tags.push_back(tag.get<std::string>());
    }
  }
  if (tags.empty()) {
    return "; " + image.repository + " has no tags";
  }
  std::string out = "; tags of " + image.repository + ": ";
  for (std::size_t i = 0; i < tags.size(); ++i) {
    out += (i == 0 ? "" : ", ") + tags[i];
  }
  if (more > 0) {
    out += " and " + std::to_string(more) + " more";
  }
  return session.scrub(out);
}

} // namespace envlock::oci
