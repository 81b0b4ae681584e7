// `envlock rollback check` (docs/manual/rollback.md): can the previous environment still be
// retrieved? Its image and base image digests must still be served by the registry (a manifest
// HEAD request by digest: nothing is downloaded), and its .sqsh must be where its squashfs result
// says, with the recorded size and sha256. With a public key, the previous image's signed
// provenance must be among its attestations in the registry (provenance_check.hpp).
#pragma once

#include "oci/image_ref.hpp"
#include "oci/registry.hpp"
#include "rollback/provenance_check.hpp"
#include "rollback/report.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace envlock::rollback {

// Whether the registry still serves the manifest `image` names by digest: the registry client's
// head_manifest, or a stand-in in tests. Nothing for a 404; an error when it could not be asked.
using ManifestProbe =
    std::function<Result<std::optional<oci::ManifestHead>>(const oci::ImageRef& image)>;

// What to check. Empty paths take their defaults.
struct Inputs {
  std::filesystem::path previous_lock; // required
  // default: build-result.json, else NAME.build-result.json, beside NAME.lock.json
  // (formats::build_result_candidates)
  std::filesystem::path build_result;
  // default: the one squashfs result in previous_lock's folder (formats::squashfs_result_in)
  std::filesystem::path squashfs_result;
  std::filesystem::path sqsh_dir;     // default: the squashfs result's folder
  std::filesystem::path current_lock; // the environment rolled back from; recorded only
  std::filesystem::path public_key;   // with it: the check image.provenance
};

// Runs every check; a piece that is gone or cannot be asked for is a check in the report, never
// an error. Fails (exit 2) only on bad input: an unreadable or malformed lock, build result or
// squashfs result, a --sqsh-dir that is not a folder, a result given that does not exist, a
// public key that cannot be read. `attached` is asked only with a public key.
Result<Report> check_rollback(const Inputs& inputs, const ManifestProbe& probe,
                              const AttachedProbe& attached = {});

} // namespace envlock::rollback
