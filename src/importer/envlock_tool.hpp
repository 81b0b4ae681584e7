// The full envlock, run by the importer for the three things that need a registry: making a .sqsh
// (`envlock squashfs`, exactly what that command does), resolving the tag of an image no lock
// pins (`envlock resolve`) and fetching an image's signed provenance from its attestations
// (`envlock attest fetch`, for require_signed). Keeping libcurl, libarchive and libgit2 out of
// envlock-importer is what lets a cached get start in a few milliseconds.
#pragma once

#include "formats/squashfs_result.hpp"
#include "oci/image_ref.hpp"
#include "oci/registry.hpp"
#include "squashfs/mksquashfs.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace envlock::importer {

// The envlock executable: this program when it is envlock, else `envlock` beside it. An
// environment error (exit 3) when there is none.
Result<std::filesystem::path> envlock_tool();

// The registry options as `envlock squashfs` and `envlock resolve` take them.
std::vector<std::string> registry_arguments(const oci::RegistryOptions& options);

struct SquashRequest {
  oci::ImageRef image; // REGISTRY/REPOSITORY@DIGEST (the platform manifest)
  std::string platform;
  squashfs::SquashSettings settings;
  std::filesystem::path output;  // the .sqsh
  std::filesystem::path result;  // its squashfs-result.json
  std::filesystem::path scratch; // TMPDIR of the run: the rootfs and the blobs
  oci::RegistryOptions registry;
};

// Runs `envlock squashfs` for the request (killed if this process dies) and reads the result
// file it wrote. `on_warning` hears its warnings. Its failures keep its exit code and message:
// "envlock squashfs: MESSAGE".
Result<formats::SquashfsResult>
run_squashfs(const std::filesystem::path& tool, const SquashRequest& request,
             const std::function<void(const std::string&)>& on_warning);

struct Resolution {
  std::string digest;          // what the reference points to
  std::string platform_digest; // the manifest for the platform
};

// Runs `envlock resolve --format=json` for `image` and `platform`; failures as for run_squashfs.
Result<Resolution> run_resolve(const std::filesystem::path& tool, const oci::ImageRef& image,
                               const std::string& platform, const oci::RegistryOptions& registry);

// One attestation `envlock attest fetch` wrote.
struct FetchedAttestation {
  std::filesystem::path file;
  std::string digest; // the artifact manifest's, as the registry lists it
};

// Runs `envlock attest fetch IMAGE --type provenance --dir DIR` (`image` by digest) and returns
// the files it wrote, in its order. Failures as for run_squashfs: an image with no provenance
// attached is a check failure (exit 1) whose message says where it was looked for.
Result<std::vector<FetchedAttestation>> run_attest_fetch(const std::filesystem::path& tool,
                                                         const oci::ImageRef& image,
                                                         const std::filesystem::path& dir,
                                                         const oci::RegistryOptions& registry);

} // namespace envlock::importer
