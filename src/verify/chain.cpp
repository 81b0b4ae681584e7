#include "verify/chain.hpp"

#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <system_error>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

bool is_digest(std::string_view text) {
  return text.size() == 71 && text.starts_with("sha256:") && util::is_hex(text.substr(7));
}

std::string text_at(const nlohmann::json& object, const char* a, const char* b) {
  if (!object.is_object() || !object.contains(a) || !object[a].is_object()) {
    return {};
  }
  const auto& inner = object[a];
  return inner.contains(b) && inner[b].is_string() ? inner[b].get<std::string>() : std::string();
}

// What a record beside the .sqsh says: FILE.json (the importer's), else a squashfs-result.json
// in its folder whose file_name is FILE's name. Each as {image digest, .sqsh sha256, size, from}.
struct Recorded {
  std::string image_digest;
  std::string sha256;
  std::uintmax_t size = 0;
  std::string from;
};

std::optional<Recorded> recorded_beside(const fs::path& sqsh) {
  const fs::path record = sqsh.string() + ".json";
  if (auto json = util::read_json_file(record);
      json && json->value("schema", "") == "envlock.image-record/v1") {
    Recorded r;
    r.image_digest = text_at(*json, "image", "digest");
    r.sha256 = text_at(*json, "sqsh", "sha256");
    if (json->contains("sqsh") && (*json)["sqsh"].contains("size") &&
        (*json)["sqsh"]["size"].is_number_unsigned()) {
      r.size = (*json)["sqsh"]["size"].get<std::uintmax_t>();
    }
    r.from = record.string();
    return r;
  }
  for (const std::string& name :
       {sqsh.filename().string() + ".squashfs-result.json",
        sqsh.stem().string() + ".squashfs-result.json", std::string("squashfs-result.json")}) {
    const fs::path result = sqsh.parent_path() / name;
    auto json = util::read_json_file(result);
    if (!json || json->value("schema", "") != "envlock.squashfs-result/v1" ||
        text_at(*json, "sqsh", "file") != sqsh.filename().string()) {
      continue;
    }
    Recorded r;
    const std::string reference = text_at(*json, "image", "reference");
    const auto at = reference.rfind('@');
    r.image_digest = at == std::string::npos ? "" : reference.substr(at + 1);
    r.sha256 = text_at(*json, "sqsh", "sha256");
    if ((*json)["sqsh"].contains("size") && (*json)["sqsh"]["size"].is_number_unsigned()) {
      r.size = (*json)["sqsh"]["size"].get<std::uintmax_t>();
    }
    r.from = result.string();
    return r;
  }
  return std::nullopt;
}

} // namespace

Result<ChainLinks> find_chain_links(const VerifyOptions& options) {
  ChainLinks links;
  if (!options.image_digest.empty()) {
    if (!is_digest(options.image_digest)) {
      return input_error("--image-digest: '" + options.image_digest + "' is not sha256:<64 hex>");
    }
    links.image_digest = options.image_digest;
    links.details["image_digest_from"] = "--image-digest";
  }
  if (!options.sqsh.empty()) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(options.sqsh, ec);
    if (ec) {
      return input_error("--sqsh " + options.sqsh.string() + ": " + ec.message());
    }
    const auto recorded = recorded_beside(options.sqsh);
    if (recorded && recorded->size == size && util::is_hex(recorded->sha256) &&
        recorded->sha256.size() == 64) {
      // The importer hashed the file when it placed it; its size still matches.
      links.sqsh_sha256 = recorded->sha256;
      links.details["sqsh_sha256_from"] = recorded->from;
    } else {
      ENVLOCK_TRY_ASSIGN(links.sqsh_sha256, util::sha256_file_hex(options.sqsh));
      links.details["sqsh_sha256_from"] = "hashed " + options.sqsh.string();
    }
    if (!links.image_digest && recorded && is_digest(recorded->image_digest)) {
      links.image_digest = recorded->image_digest;
      links.details["image_digest_from"] = recorded->from;
    }
  }
  if (!links.image_digest) {
    links.details["image_digest_missing"] =
        options.sqsh.empty() ? "no --image-digest, and no --sqsh whose record names the image"
                             : "no --image-digest, and nothing beside the .sqsh names the image";
  }
  if (!links.sqsh_sha256) {
    links.details["sqsh_sha256_missing"] = "no --sqsh: the image did not come from a .sqsh "
                                           "envlock-verify was told of";
  }
  return links;
}

} // namespace envlock::verify
