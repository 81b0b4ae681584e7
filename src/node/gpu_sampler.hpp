// The SDC check's GPU sampler (verify/gpu/sampler.hpp) through node's NVML binding: the GPUs
// found once by UUID, then read (temperature, SM clock, clock-event reasons) from any thread.
#pragma once

#include "verify/gpu/sampler.hpp"

#include <memory>
#include <string>
#include <vector>

namespace envlock::node {

// NVML opened from the first of `names` that loads; fails (environment error) as
// NvmlSession::open does.
Result<std::shared_ptr<verify::GpuSampler>>
open_nvml_sampler(const std::vector<std::string>& names = {"libnvidia-ml.so.1"});

} // namespace envlock::node
