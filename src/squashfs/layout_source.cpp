// BlobSource over an OCI image layout folder (the layout the OCI image specification defines).
#include "squashfs/blob_source.hpp"

#include "oci/image_ref.hpp"
#include "oci/registry.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace envlock::squashfs {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::uintmax_t k_document_limit = std::uintmax_t{64} << 20;
constexpr const char* k_ref_annotation = "org.opencontainers.image.ref.name";

bool is_index(const std::string& media_type) {
  return media_type == oci::media_type::oci_index || media_type == oci::media_type::docker_list;
}

// The platform fields of an index entry as "os/arch[/variant]".
std::string platform_of(const json& entry) {
  const json platform = entry.value("platform", json::object());
  std::string out = platform.value("os", "") + "/" + platform.value("architecture", "");
  const std::string variant = platform.value("variant", "");
  return variant.empty() ? out : out + "/" + variant;
}

bool platform_matches(const json& entry, std::string_view wanted) {
  const std::string have = platform_of(entry);
  // "linux/arm64" matches "linux/arm64/v8"; an exact match is needed when a variant is asked.
  return have == wanted || have.rfind(std::string(wanted) + "/", 0) == 0;
}

class LayoutSource final : public BlobSource {
public:
  LayoutSource(fs::path dir, std::string ref) : m_dir(std::move(dir)), m_ref(std::move(ref)) {}

  Result<ManifestBlob> manifest(std::string_view platform) override {
    ENVLOCK_TRY_ASSIGN(const json index, util::read_json_file(m_dir / "index.json"));
    ENVLOCK_TRY_ASSIGN(json entry, pick_entry(index));
    for (int depth = 0; depth < 4; ++depth) {
      const std::string digest = entry.value("digest", "");
      if (!oci::is_valid_digest(digest)) {
        return input_error(origin() + ": invalid descriptor digest '" + digest + "'");
      }
      ENVLOCK_TRY_ASSIGN(const fs::path path, blob_file(digest, std::nullopt));
      ENVLOCK_TRY_ASSIGN(std::string body, read_verified_blob(path, digest));
      ENVLOCK_TRY_ASSIGN(const json doc, util::parse_json(body, path.string()));
      const std::string media_type = doc.value("mediaType", entry.value("mediaType", ""));
      if (!is_index(media_type) && !doc.contains("manifests")) {
        return ManifestBlob{digest, std::move(body)};
      }
      ENVLOCK_TRY_ASSIGN(entry, pick_platform(doc, platform));
    }
    return input_error(origin() + ": image indexes nested too deeply");
  }

  Result<fs::path> blob_file(std::string_view digest,
                             std::optional<std::uint64_t> /*size*/) override {
    if (!oci::is_valid_digest(digest)) {
      return input_error(origin() + ": invalid digest '" + std::string(digest) + "'");
    }
    fs::path path = m_dir / "blobs" / "sha256" / std::string(digest.substr(7));
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
      return input_error(origin() + ": blob " + std::string(digest) + " is missing");
    }
    return path;
  }

private:
  [[nodiscard]] std::string origin() const { return "OCI layout " + m_dir.string(); }

  Result<json> pick_entry(const json& index) const {
    const json manifests = index.value("manifests", json::array());
    if (!manifests.is_array() || manifests.empty()) {
      return input_error(origin() + ": index.json lists no image");
    }
    if (m_ref.empty()) {
      if (manifests.size() != 1) {
        return input_error(origin() + ": holds " + std::to_string(manifests.size()) +
                           " images; name one with --image");
      }
      return manifests[0];
    }
    std::vector<std::string> names;
    for (const auto& entry : manifests) {
      const std::string name =
          entry.value("annotations", json::object()).value(k_ref_annotation, "");
      if (entry.value("digest", "") == m_ref || name == m_ref) {
        return entry;
      }
      if (!name.empty()) {
        names.push_back(name);
      }
    }
    std::string message = origin() + ": no image '" + m_ref + "'";
    if (const auto close = util::closest_match(m_ref, names)) {
      message += "; did you mean '" + *close + "'?";
    }
    return input_error(message);
  }

  Result<json> pick_platform(const json& index, std::string_view platform) const {
    std::vector<std::string> have;
    for (const auto& entry : index.value("manifests", json::array())) {
      if (platform_matches(entry, platform)) {
        return entry;
      }
      have.push_back(platform_of(entry));
    }
    return input_error(origin() + ": no manifest for platform " + std::string(platform) +
                       " (the index has: " + util::join(have, ", ") + ")");
  }

  fs::path m_dir;
  std::string m_ref;
};

} // namespace

std::unique_ptr<BlobSource> make_layout_source(fs::path dir, std::string ref) {
  return std::make_unique<LayoutSource>(std::move(dir), std::move(ref));
}

Result<std::string> read_verified_blob(const fs::path& path, std::string_view digest) {
  ENVLOCK_TRY_ASSIGN(std::string body, util::read_file_limited(path, k_document_limit));
  const std::string got = "sha256:" + util::sha256_hex(body);
  if (got != digest) {
    return input_error("blob " + std::string(digest) + ": digest mismatch (got " + got + ")");
  }
  return body;
}

} // namespace envlock::squashfs
