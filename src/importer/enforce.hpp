// What root does on a node before a job, where Pyxis does not call the importer (a .sqsh path
// given to --container-image is opened by Pyxis itself): the prolog reads the job's image from the
// SPANK option environment (docs/manual/slurm.md) and runs
//   check URI  the policy, applied without importing anything: a .sqsh path must be on a path
//              only root can change (trusted_path.hpp), lie inside one of the sqsh_dirs and be
//              the pinned image its squashfs-result.json names (its sha256 checked); a docker://
//              image must be pinned by a lock; a --container-name must be NAME:create with an
//              image. Under policy warn the same findings are warnings.
//   fill URI   the pinned image put in the shared cache (shared_cache.hpp), unless a good
//              pre-distributed copy is there already.
// and the health check runs
//   scan       every pre-distributed .sqsh checked against its record: the corrupt ones (and the
//              staging folders of fills that died removed from the shared cache).
#pragma once

#include "importer/importer.hpp"
#include "util/result.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace envlock::importer {

// The locks the configuration names, read as its trust says (pins.hpp); their warnings noted.
Result<Catalogue> read_pins(const Context& context);

// The check of `uri` (may be empty when `container` is given) and of a --container-name
// `container` (NAME[:FLAG], may be empty): under policy refuse, a named container is allowed only
// as NAME:create with an image, since Pyxis runs an existing one unchecked. A check failure
// (exit 1) naming why when the policy refuses the job.
Status check(const Context& context, std::string_view uri, const std::string& container = {});

// The fill; its outcome names the .sqsh jobs will get. An input error for a .sqsh path or an
// image no lock pins (nothing to fill), an environment error without shared_cache.
Result<GetOutcome> fill(const Context& context, std::string_view uri);

// One line per pre-distributed .sqsh that differs from its record ("PATH: sha256 A, expected B
// (from RECORD)") or cannot be read.
std::vector<std::string> scan(const Context& context);

} // namespace envlock::importer
