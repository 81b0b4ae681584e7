// The NCCL all-reduce checks over the local GPUs, one process: ncclCommInitAll, then group calls
// from this thread. "nccl.allreduce": GPU k contributes k + 1 and every GPU must read exactly
// N(N+1)/2. "nccl.busbw": a size sweep reporting time, algbw and busbw (nccl-tests' definitions,
// out of place, 5 warm-up and 20 timed iterations per size), judged at the largest size against
// lock.expect.nccl_busbw_gbps[model] when the lock sets it.
#pragma once

#include "lock/lock.hpp"
#include "verify/check.hpp"
#include "verify/gpu/device.hpp"
#include "verify/gpu/gpu_checks.hpp"
#include "verify/gpu/nccl_api.hpp"
#include "verify/gpu/setup.hpp"
#include "verify/gpu/sweep.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace envlock::verify {

// Runs both checks over `devices` with NCCL's set-up (the library and the communicators, made
// beside the other checks' first part): when either failed, both checks fail with its error.
// "nccl.allreduce"'s time includes the set-up (library load and ncclCommInitAll), also given in
// its details ("setup").
std::vector<CheckResult> allreduce_checks(const cuda::Api& api, const lock::Lock& lock,
                                          const std::vector<DeviceInfo>& devices, NcclSetup& setup,
                                          const GpuOptions& options);

} // namespace envlock::verify
