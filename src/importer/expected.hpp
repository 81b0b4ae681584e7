// What a pinned image's .sqsh must be, and where that is written down:
// - squashfs-result.json files in the configured sqsh_dirs (as `envlock squashfs` writes them
//   and `envlock fleet distribute` copies the image beside them): a record whose image manifest,
//   platform and Enroot settings are the pin's gives the expected sha256 and size, and its .sqsh
//   when the image itself is there too;
// - with a public key configured, for the image a lock builds: the signed provenance
//   (provenance.dsse.json beside the lock) whose lock digest is the lock's, and whose .sqsh
//   subject gives the sha256; with require_signed, when no envelope lies beside the lock, the
//   provenance attached to the image in its registry (`envlock attest fetch` by the image's
//   digest) stands in for it.
// Without either, nothing records the image: the first import is what later gets check against.
#pragma once

#include "formats/squashfs_result.hpp"
#include "importer/config.hpp"
#include "importer/pins.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::importer {

// A squashfs-result.json found in a sqsh_dir.
struct Distributed {
  std::filesystem::path record; // the result file
  std::filesystem::path sqsh;   // its sqsh.file in the same folder (it may be absent)
  formats::SquashfsResult result;
};

struct SqshDirScan {
  std::vector<Distributed> records;  // by path
  std::vector<std::string> warnings; // records that could not be read, and why
};

// Every squashfs-result.json (or NAME.squashfs-result.json) in each folder and in its immediate
// subfolders. A missing folder is a warning, never an error: a node may not have it yet. Under
// Trust::system (a job's configuration), a subfolder, a record or an image not on a trusted path
// (trusted_path.hpp: a user's subfolder, a sticky folder, a link) is skipped with a warning.
SqshDirScan scan_sqsh_dirs(const std::vector<std::filesystem::path>& dirs,
                           Trust trust = Trust::caller);

struct Expectation {
  std::string sha256;     // 64 hex; empty when nothing records the image
  std::uint64_t size = 0; // 0 when unknown
  std::string source;     // for messages: "RECORD" or "PROVENANCE (signed by KEYID)"
  std::optional<Distributed> distributed; // the matching record, with its .sqsh path
};

// The expectation for `pin`. With a public key and the lock's own image, the signed provenance
// is required: a check failure (exit 1) when it is missing (beside the lock, and with
// require_signed among the image's attestations too), does not verify, or does not name this
// lock; an input error when the key cannot be read; an environment error when the registry
// cannot be asked.
Result<Expectation> expectation_for(const Pin& pin, const ImporterConfig& config,
                                    const SqshDirScan& scan);

// The record of the .sqsh at `path`: the squashfs result beside it that describes it
// (formats::find_squashfs_result_beside). Nothing when there is none.
std::optional<Distributed> record_beside(const std::filesystem::path& path);

} // namespace envlock::importer
