#include "verify/gpu/timer.hpp"

namespace envlock::verify {

Result<double> time_iterations(const cuda::Api& api, cuda::CuStream stream, int warmup,
                               int iterations, const std::function<Status()>& enqueue) {
  for (int i = 0; i < warmup; ++i) {
    ENVLOCK_TRY(enqueue());
  }
  ENVLOCK_TRY_ASSIGN(auto start, cuda::Event::create(api));
  ENVLOCK_TRY_ASSIGN(auto stop, cuda::Event::create(api));
  ENVLOCK_TRY(cuda::check(api, api.event_record(start.get(), stream), "cuEventRecord"));
  for (int i = 0; i < iterations; ++i) {
    ENVLOCK_TRY(enqueue());
  }
  ENVLOCK_TRY(cuda::check(api, api.event_record(stop.get(), stream), "cuEventRecord"));
  ENVLOCK_TRY_ASSIGN(double seconds, cuda::elapsed_seconds(api, start, stop));
  return seconds / iterations;
}

} // namespace envlock::verify
