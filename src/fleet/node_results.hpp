// The per-node files a fleet job leaves in RESULTS/nodes/: NODE.json (the verifier's report),
// NODE.rc (its exit status) and, when host checks ran, NODE.host.json (`envlock node --check`).
// envlock itself writes NODE.not-verified.json for a node no job ran on.
#pragma once

#include "fleet/fleet_report.hpp"
#include "util/result.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace envlock::fleet {

// RESULTS/nodes
std::filesystem::path nodes_dir(const std::filesystem::path& results);

// How many of `nodes` have written their exit status (are done).
std::size_t count_done(const std::filesystem::path& results, const std::vector<std::string>& nodes);

// What each of `nodes` left. A node without a readable envlock.report/v1 is not `reported`, and
// `problem` says why ("no report", the reader's error naming NODE.json, the verifier's exit). A
// NODE.host.json that does not read is a failed check "host" with the reader's error.
std::vector<NodeInput> read_node_results(const std::filesystem::path& results,
                                         const std::vector<std::string>& nodes);

// Writes RESULTS/nodes/NODE.not-verified.json ({"reason": …}): the node was not verified, and
// why; read_node_results reads it back for a node without a report. Environment error on I/O.
Status write_not_verified(const std::filesystem::path& results, const std::string& node,
                          const std::string& reason);

} // namespace envlock::fleet
