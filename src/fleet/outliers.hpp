// Figures that lag: bandwidth, busbw and TFLOP/s figures of each node against the reference
// node's (more than the tolerance below it), and busbw against the lock's thresholds.
#pragma once

#include "fleet/fleet_report.hpp"

#include <string>
#include <vector>

namespace envlock::fleet {

// The outliers among `nodes` (sorted), by node then check and figure. A busbw figure of a node
// whose GPU model has a threshold is compared with the threshold; every other rate figure with
// the reference node's same figure. Nodes without a report, and the reference itself, have none.
std::vector<Outlier> find_outliers(const std::vector<NodeInput>& nodes,
                                   const std::string& reference, const AggregateOptions& options);

} // namespace envlock::fleet
