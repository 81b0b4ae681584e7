// The SDC check's comparison within the node: the digests of every GPU's chain ("gpu.N.sdc"),
// GPUs grouped by chain, model, driver, CUDA and cuBLASLt (formats::sdc_group_key), a majority
// vote per group (util::vote_digests). A GPU whose digest leaves its group's majority is named:
// sdc.gpu.minority, isolate the GPU and return it for repair. A tie, or a group too small for a
// majority, is said and names no GPU; a GPU whose chain did not repeat on itself is left out.
#pragma once

#include "verify/check.hpp"

#include <vector>

namespace envlock::verify {

// "sdc.node" (group "sdc") from the node's checks: pass when every group agrees, fail naming
// the minority or saying the tie, skip when no group has two GPUs to compare.
CheckResult compare_node_sdc(const std::vector<CheckResult>& checks);

} // namespace envlock::verify
