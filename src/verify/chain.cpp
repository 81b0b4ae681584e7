#include "verify/chain.hpp"

#include "formats/image_record.hpp"
#include "formats/squashfs_result.hpp"
#include "util/fs.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <system_error>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

bool is_digest(std::string_view text) {
  return text.size() == 71 && text.starts_with("sha256:") && util::is_hex(text.substr(7));
}

// What a record beside the .sqsh says: FILE.json (the importer's image record), else the
// squashfs result that describes FILE. Each as {image digest, .sqsh sha256, size, from}. A record
// that does not read is not used: the file is hashed instead.
struct Recorded {
  std::string image_digest;
  std::string sha256;
  std::uintmax_t size = 0;
  std::string from;
};

std::optional<Recorded> recorded_beside(const fs::path& sqsh) {
  const fs::path record = formats::image_record_path_for(sqsh);
  if (util::path_exists(record)) {
    if (auto image = formats::read_image_record(record)) {
      return Recorded{image->digest, image->sha256, image->size, record.string()};
    }
  }
  auto found = formats::find_squashfs_result_beside(sqsh);
  if (!found) {
    return std::nullopt;
  }
  const std::string& reference = found->result.image_reference;
  const auto at = reference.rfind('@');
  return Recorded{at == std::string::npos ? "" : reference.substr(at + 1), found->result.sha256,
                  found->result.size, found->path.string()};
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
