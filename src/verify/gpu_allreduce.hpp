// The NCCL all-reduce checks over the local GPUs, one process: ncclCommInitAll, then group calls
// from this thread. "nccl.allreduce": GPU k contributes k + 1 and every GPU must read exactly
// N(N+1)/2. "nccl.busbw": a size sweep reporting time, algbw and busbw (nccl-tests' definitions,
// out of place, 5 warm-up and 20 timed iterations per size), judged at the largest size against
// lock.expect.nccl_busbw_gbps[model] when the lock sets it.
#pragma once

#include "lock/lock.hpp"
#include "verify/check.hpp"
#include "verify/gpu.hpp"
#include "verify/gpu_device.hpp"
#include "verify/nccl_api.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace envlock::verify {

// "1MiB", "256MiB", "1GiB", "512KiB": a power-of-two byte count as the figures name it.
std::string size_label(std::uint64_t bytes);

// The sweep's sizes: min, 4 min, 16 min, ... up to max (max always included).
std::vector<std::uint64_t> sweep_sizes(std::uint64_t min, std::uint64_t max);

// Judges the bus bandwidth at the sweep's largest size against the lock's threshold for `model`;
// fills outcome, expected, found and reason of `check`. One rank: skipped, "one GPU: no
// communication".
void judge_busbw(const lock::Expect& expect, const std::string& model, int ranks,
                 std::uint64_t bytes, double busbw, CheckResult& check);

// Runs both checks over `devices` with the NCCL library `nccl` (null when it did not load:
// both checks then fail with `nccl_error`).
std::vector<CheckResult> allreduce_checks(const cuda::Api& api, const lock::Lock& lock,
                                          const std::vector<DeviceInfo>& devices,
                                          const nccl::Library* nccl, const std::string& nccl_error,
                                          const GpuOptions& options);

} // namespace envlock::verify
