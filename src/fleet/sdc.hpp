// The fleet's SDC comparison (docs/manual/fleet.md, "Every GPU computes the same bits"): every
// reported node's "gpu.N.sdc" digests, GPUs grouped by chain, model, driver, CUDA and cuBLASLt
// (formats::sdc_group_key) across the whole fleet, a majority vote per group
// (util::vote_digests). A GPU in a minority is named with its node (and becomes that node's
// failure, with a drain line); a tie, or a group of one GPU, is said and names nobody; a GPU
// whose chain did not repeat on itself is left out, never called faulty.
#pragma once

#include "fleet/fleet_report.hpp"

#include <vector>

namespace envlock::fleet {

// The comparison, and a Failure for each minority GPU's node (check "sdc.gpu.minority") or for
// a node whose digests cannot be read. Pure.
struct SdcComparison {
  formats::FleetSdc sdc;
  std::vector<Failure> failures;
};
SdcComparison compare_fleet_sdc(const std::vector<NodeInput>& nodes);

} // namespace envlock::fleet
