// The links a verification report carries from a node back to the manifest: the lock's sha256
// (always), the image the node ran (`image_digest`) and the .sqsh it came from (`sqsh_sha256`).
// Each is taken from what the run was given, never guessed: --image-digest and --sqsh FILE, the
// record the importer wrote beside that .sqsh (FILE.json, envlock.image-record/v1) or a
// squashfs-result.json beside it that names it. What is unknown stays null, with the reason.
#pragma once

#include "util/result.hpp"
#include "verify/options.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace envlock::verify {

struct ChainLinks {
  std::optional<std::string> image_digest; // "sha256:…"
  std::optional<std::string> sqsh_sha256;  // 64 hex
  // details.chain: for each link where it came from ("image_digest_from", "sqsh_sha256_from"),
  // or why it is null ("image_digest_missing", "sqsh_sha256_missing").
  nlohmann::json details = nlohmann::json::object();
};

// The links of this run. Fails (exit 2) on a malformed --image-digest ("--image-digest: 'x' is
// not sha256:<64 hex>") or an unreadable --sqsh ("--sqsh FILE: No such file or directory").
Result<ChainLinks> find_chain_links(const VerifyOptions& options);

} // namespace envlock::verify
