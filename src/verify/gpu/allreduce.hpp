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

// "nccl.allreduce": GPU k contributes k + 1 and every GPU must read exactly N(N+1)/2. Run by the
// set-up right after ncclCommInitAll (it is no measurement): NCCL connects its ranks and loads
// its kernels on the first collective, work that would otherwise wait for the timed sweep. Fails
// with the first driver or NCCL error.
Result<CheckResult> allreduce_known_answer(const cuda::Api& api, const nccl::Library& nccl,
                                           const nccl::Communicators& comms,
                                           const std::vector<DeviceInfo>& devices);

// Both checks over `devices` with NCCL's set-up (the library, the communicators and the known
// answer, made beside the other checks' first part), then the timed sweep: when the set-up
// failed, both checks fail with its error. "nccl.allreduce"'s time is its set-up's (library load,
// ncclCommInitAll, the known answer), also given in its details ("setup").
std::vector<CheckResult> allreduce_checks(const cuda::Api& api, const lock::Lock& lock,
                                          const std::vector<DeviceInfo>& devices, NcclSetup& setup,
                                          const GpuOptions& options);

} // namespace envlock::verify
