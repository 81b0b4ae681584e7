// The drain list: which nodes to take out of service (they failed or never reported) and which
// to put back (drained by envlock earlier, passed since), as `scontrol update` lines.
#pragma once

#include "fleet/fleet_report.hpp"
#include "fleet/slurm.hpp"

#include <map>
#include <string>
#include <vector>

namespace envlock::fleet {

// The prefix of every drain reason envlock sets; only such drains are ever resumed.
inline constexpr const char* k_reason_prefix = "envlock: ";

struct NodeVerdict {
  std::string node;
  bool passed = false;
  std::string reason; // the drain reason when not passed, e.g. "envlock: torch.version failed"
};

struct DrainAction {
  std::string node;
  std::vector<std::string> argv; // scontrol update nodename=… state=… [reason=…]
  std::string line;              // the same as one shell line
};

// One verdict per node of a fleet report: failed checks, outliers or no report. Nodes that were
// not verified (drained, down, ...) get none.
std::vector<NodeVerdict> verdicts_from_report(const FleetReport& report);

// Merges verdicts of several reports: a node that failed in any of them fails (first reason).
std::vector<NodeVerdict> merge_verdicts(const std::vector<std::vector<NodeVerdict>>& lists);

// Drain lines for failed nodes that are not drained yet, resume lines for passed nodes that
// are drained with an envlock reason; in natural node order. Nodes Slurm does not know are left
// out.
std::vector<DrainAction> drain_actions(const std::vector<NodeVerdict>& verdicts,
                                       const std::map<std::string, NodeState>& states);

} // namespace envlock::fleet
