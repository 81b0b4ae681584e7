// What root does on a node before a job, where Pyxis does not call the importer (a .sqsh path
// given to --container-image is opened by Pyxis itself): the prolog reads the job's image from the
// SPANK option environment (docs/manual/slurm.md) and runs
//   check URI  the policy, applied without importing anything: a .sqsh path must lie inside one of
//              the sqsh_dirs and be the pinned image its squashfs-result.json names (its sha256
//              checked); a docker:// image must be pinned by a lock. Under policy warn the same
//              findings are warnings.
//   fill URI   the pinned image put in the shared cache (shared_cache.hpp), unless a good
//              pre-distributed copy is there already.
// and the health check runs
//   scan       every pre-distributed .sqsh checked against its record: the corrupt ones.
#pragma once

#include "importer/importer.hpp"
#include "util/result.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace envlock::importer {

// The check. A check failure (exit 1) naming why when the policy refuses the image.
Status check(const Context& context, std::string_view uri);

// The fill; its outcome names the .sqsh jobs will get. An input error for a .sqsh path or an
// image no lock pins (nothing to fill), an environment error without shared_cache.
Result<GetOutcome> fill(const Context& context, std::string_view uri);

// One line per pre-distributed .sqsh that differs from its record ("PATH: sha256 A, expected B
// (from RECORD)") or cannot be read.
std::vector<std::string> scan(const Context& context);

} // namespace envlock::importer
