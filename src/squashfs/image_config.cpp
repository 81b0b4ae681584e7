#include "squashfs/image_config.hpp"

#include "util/json.hpp"

#include "oci/image_ref.hpp"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

namespace envlock::squashfs {

namespace {

using ordered = nlohmann::ordered_json;

constexpr std::array k_layer_types = {
    "application/vnd.oci.image.layer.v1.tar",
    "application/vnd.oci.image.layer.v1.tar+gzip",
    "application/vnd.oci.image.layer.v1.tar+zstd",
    "application/vnd.oci.image.layer.nondistributable.v1.tar+gzip",
    "application/vnd.docker.image.rootfs.diff.tar.gzip",
    "application/vnd.docker.image.rootfs.foreign.diff.tar.gzip",
};

Result<ordered> parse(std::string_view text, std::string_view origin) {
  // util::parse_json first: it refuses deep nesting and numbers out of range, with positions.
  ENVLOCK_TRY(util::parse_json(text, origin));
  try {
    return ordered::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return input_error(std::string(origin) + ": invalid JSON: " + e.what());
  }
}

// jq -r prints strings raw and anything else as JSON.
std::string raw_text(const ordered& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// `jq -r '.X[]' | readarray -t`: each element printed raw, then split into lines.
std::vector<std::string> words_of(const ordered& config, const char* key) {
  std::vector<std::string> out;
  if (!config.contains(key) || !config[key].is_array()) {
    return out;
  }
  for (const auto& item : config[key]) {
    std::string text = raw_text(item);
    std::size_t start = 0;
    for (;;) {
      const std::size_t nl = text.find('\n', start);
      out.push_back(text.substr(start, nl - start));
      if (nl == std::string::npos || nl + 1 == text.size()) {
        break;
      }
      start = nl + 1;
    }
  }
  return out;
}

// `jq -r '.config.WorkingDir // empty' | read -r workdir`: the first line, blanks trimmed.
std::string working_dir_of(const ordered& config) {
  if (!config.contains("WorkingDir") || config["WorkingDir"].is_null()) {
    return "";
  }
  std::string text = raw_text(config["WorkingDir"]);
  text = text.substr(0, text.find('\n'));
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) {
    return "";
  }
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

} // namespace

namespace {

Result<ImageManifest> read_image_manifest(std::string_view text, std::string_view origin) {
  ENVLOCK_TRY_ASSIGN(const ordered doc, parse(text, origin));
  const std::string where(origin);
  if (!doc.is_object() || doc.contains("manifests")) {
    return input_error(where + ": not an image manifest");
  }
  ImageManifest out;
  if (!doc.contains("config") || !doc["config"].is_object() ||
      !oci::is_valid_digest(doc["config"].value("digest", ""))) {
    return input_error(where + ": config.digest: missing or invalid");
  }
  out.config_digest = doc["config"]["digest"].get<std::string>();
  if (const std::int64_t size = doc["config"].value("size", std::int64_t{-1}); size >= 0) {
    out.config_size = static_cast<std::uint64_t>(size);
  }
  const ordered layers = doc.value("layers", ordered::array());
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const auto& layer = layers[i];
    const std::string path = where + ": layers[" + std::to_string(i) + "]";
    LayerDescriptor d;
    d.digest = layer.value("digest", "");
    d.media_type = layer.value("mediaType", "");
    d.size = layer.value("size", std::int64_t{-1});
    if (!oci::is_valid_digest(d.digest)) {
      return input_error(path + ".digest: missing or invalid");
    }
    bool known = false;
    for (const char* t : k_layer_types) {
      known = known || d.media_type == t;
    }
    if (!known) {
      return input_error(path + ".mediaType: unsupported layer type '" + d.media_type + "'");
    }
    if (d.size < 0) {
      return input_error(path +
                         ".size: missing or negative (the layer's size bounds its download)");
    }
    out.layers.push_back(std::move(d));
  }
  return out;
}

Result<ImageConfig> read_image_config(std::string_view text, std::string_view origin) {
  ENVLOCK_TRY_ASSIGN(const ordered doc, parse(text, origin));
  if (!doc.is_object()) {
    return input_error(std::string(origin) + ": not an image config");
  }
  ImageConfig out;
  out.architecture = doc.value("architecture", doc.value("Architecture", ""));
  const ordered config = doc.value("config", ordered::object());
  if (!config.is_object()) {
    return out;
  }
  if (config.contains("Env") && config["Env"].is_array()) {
    for (const auto& item : config["Env"]) {
      out.env.push_back(raw_text(item));
    }
  }
  out.entrypoint = words_of(config, "Entrypoint");
  out.cmd = words_of(config, "Cmd");
  out.working_dir = working_dir_of(config);
  if (config.contains("Labels") && config["Labels"].is_object()) {
    for (const auto& [key, value] : config["Labels"].items()) {
      out.labels.emplace_back(key, raw_text(value));
    }
  }
  if (config.contains("Volumes") && config["Volumes"].is_object()) {
    for (const auto& [key, value] : config["Volumes"].items()) {
      out.volumes.push_back(key);
    }
    std::sort(out.volumes.begin(), out.volumes.end());
  }
  return out;
}

// A field of the wrong type ("architecture": 0) makes nlohmann's value() throw; it is the
// document's fault, so it becomes an input error.
template <typename F>
auto guarded(F read, std::string_view text, std::string_view origin)
    -> decltype(read(text, origin)) {
  try {
    return read(text, origin);
  } catch (const nlohmann::json::exception& e) {
    return input_error(std::string(origin) + ": a field has the wrong type (" + e.what() + ")");
  }
}

} // namespace

Result<ImageManifest> parse_image_manifest(std::string_view text, std::string_view origin) {
  return guarded(read_image_manifest, text, origin);
}

Result<ImageConfig> parse_image_config(std::string_view text, std::string_view origin) {
  return guarded(read_image_config, text, origin);
}

} // namespace envlock::squashfs
