// Drift: how a lock differs from its manifest and from the files it hashed, field by field, so
// that each difference can be named ("drift: expect.cuda: lock has "13.3", manifest has "13.4"").
// Without refresh nothing touches the network; with refresh the base image's tag and every git
// ref are resolved again and a moved one is reported.
#pragma once

#include "lock/lock.hpp"
#include "manifest/manifest.hpp"
#include "resolve/drift_uv.hpp"
#include "resolve/resolve.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::resolve {

enum class Refresh { local_only, remote_refs };

// One line per drift, each "drift: FIELD: ...", in the lock's key order (the base image's tag
// and the git refs last); empty when the lock matches. The refs of local git repositories are
// always resolved again (offline); the base image's tag and remote git refs only with
// Refresh::remote_refs. Fails only when a file, a local repository or (with refresh) a remote
// cannot be read.
// `megatron_repo`: a local clone for reading an upstream recipe of a remote source; without one
// the recipe's FROM lines of a remote source are not compared. The training files are hashed
// again (`progress` is told), and each that changed or cannot be read is a drift.
// Python inputs that contradict each other (check_python_inputs) fail (exit 2), as `envlock lock`
// would.
Result<std::vector<std::string>>
find_drift(const manifest::Manifest& manifest, const lock::Lock& lock,
           const std::filesystem::path& lock_path, Refresh refresh, const ImageResolver& resolve,
           const std::optional<std::filesystem::path>& megatron_repo = {},
           const FileProgress& progress = {});

// find_drift's lines, and the uv.lock packages among them that moved since the lock (the lines
// "drift: python.uv_lock.packages.NAME: KIND: ..." say the same), for `lock --check --format json`.
struct DriftReport {
  std::vector<std::string> lines;
  std::vector<PackageMove> packages; // sorted by name
};

Result<DriftReport>
find_drift_report(const manifest::Manifest& manifest, const lock::Lock& lock,
                  const std::filesystem::path& lock_path, Refresh refresh,
                  const ImageResolver& resolve,
                  const std::optional<std::filesystem::path>& megatron_repo = {},
                  const FileProgress& progress = {});

} // namespace envlock::resolve
