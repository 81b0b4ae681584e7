// What the SDC check reads of a GPU while it works: its temperature, SM clock and clock-event
// reasons, and once its serial number and the driver's version. verify may not read NVML itself
// (node owns the one binding, and node sits above verify), so the caller hands a sampler in:
// envlock-verify's main and `envlock verify` give node's NVML sampler (node/gpu_sampler.hpp);
// without one the check says that nothing was sampled.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace envlock::verify {

// One reading of a GPU.
struct GpuSample {
  int temperature_c = -1;          // -1: not read
  unsigned sm_clock_mhz = 0;       // 0: not read
  std::uint64_t event_reasons = 0; // NVML's clock-event reason bits
  bool event_reasons_read = false; // whether event_reasons was read
};

// Facts read once per GPU.
struct GpuIdentity {
  std::string serial;         // "" when the board has none or NVML lacks the call
  std::string driver_version; // "580.159.04"
};

// Reads GPUs by UUID ("GPU-…"); safe to call from several threads at once.
class GpuSampler {
public:
  GpuSampler() = default;
  GpuSampler(const GpuSampler&) = delete;
  GpuSampler& operator=(const GpuSampler&) = delete;
  GpuSampler(GpuSampler&&) = delete;
  GpuSampler& operator=(GpuSampler&&) = delete;
  virtual ~GpuSampler() = default;
  // Fails (environment error) when the GPU is not known to the sampler.
  virtual Result<GpuIdentity> identity(const std::string& uuid) = 0;
  // Fails when the GPU is not known or the reading fails as a whole.
  virtual Result<GpuSample> sample(const std::string& uuid) = 0;
};

// NVML's clock-event reason bits that mean the GPU slowed itself for heat or power: hardware
// slowdown, software and hardware thermal slowdown, the power brake (a finding of their own).
inline constexpr std::uint64_t k_slowdown_reasons = 0x8 | 0x20 | 0x40 | 0x80;

// The names of the set bits of NVML's clock-event reasons, in bit order: "gpu_idle",
// "applications_clocks_setting", "sw_power_cap", "hw_slowdown", "sync_boost",
// "sw_thermal_slowdown", "hw_thermal_slowdown", "hw_power_brake_slowdown",
// "display_clock_setting", else "bit_N".
std::vector<std::string> clock_event_names(std::uint64_t reasons);

} // namespace envlock::verify
