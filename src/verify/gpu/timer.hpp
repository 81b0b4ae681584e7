// Timing for the GPU checks: wall-clock laps for CheckResult::seconds, and CUDA-event timing of a
// repeated GPU operation (warm-up runs, then timed runs between two events on one stream).
#pragma once

#include "verify/gpu/cuda_raii.hpp"

#include <chrono>
#include <functional>

namespace envlock::verify {

// Wall-clock seconds since construction or the previous lap.
class Stopwatch {
public:
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const std::chrono::duration<double> elapsed = now - m_last;
    m_last = now;
    return elapsed.count();
  }

private:
  std::chrono::steady_clock::time_point m_last = std::chrono::steady_clock::now();
};

// The timed GPU operations' runs, nccl-tests' defaults: untimed warm-up runs, then timed runs.
inline constexpr int k_warmup_runs = 5;
inline constexpr int k_timed_runs = 20;

// Seconds per run of `enqueue` (which queues one run on `stream`): `warmup` untimed runs, then
// `iterations` runs between two events. Fails with the first error of enqueue or the driver.
Result<double> time_iterations(const cuda::Api& api, cuda::CuStream stream, int warmup,
                               int iterations, const std::function<Status()>& enqueue);

} // namespace envlock::verify
