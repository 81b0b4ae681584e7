// One GPU's inventory and its own checks (known answer, bandwidth, BF16 GEMM), run on a thread
// of its own with the device's primary context current.
#pragma once

#include "verify/check.hpp"
#include "verify/gpu/cublaslt.hpp"
#include "verify/gpu/cuda_driver.hpp"
#include "verify/gpu/cuda_raii.hpp"
#include "verify/gpu/gpu_checks.hpp"

#include <array>
#include <cstddef>
#include <future>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::verify {

// What the driver says about one visible device.
struct DeviceInfo {
  int ordinal = 0; // index among the visible devices ("gpu.<ordinal>.*")
  cuda::CuDevice device = 0;
  std::string name; // "NVIDIA H200"
  std::string uuid; // "GPU-..."
  int sm_count = 0;
  int cc_major = 0;
  int cc_minor = 0;
  std::size_t memory_bytes = 0;
};

// A check with its group, id and title, not yet run (outcome skip).
CheckResult new_check(std::string group, std::string id, std::string title);

// The run-wide GPU checks, in report order: group, id, title.
const std::vector<std::array<const char*, 3>>& run_check_rows();

// The run-wide check `id` of run_check_rows(), not yet run.
CheckResult new_run_check(std::string_view id);

// The checks of one device, before they run: "gpu.N.smoke" and "gpu.N.bandwidth" (group "smoke"),
// "gpu.N.gemm_bf16" (group "gemm").
std::vector<CheckResult> new_device_checks(const DeviceInfo& device);

// The visible devices (all, or those of `ordinals`). Fails with the driver's error, or an input
// error "no GPU N: M visible" for an ordinal out of range.
Result<std::vector<DeviceInfo>> list_devices(const cuda::Api& api,
                                             const std::vector<int>& ordinals);

// The sizes the device checks use; smaller ones under GpuOptions::quick.
struct DeviceSizes {
  std::size_t known_answer_elements = std::size_t{1} << 20;
  std::size_t copy_bytes = std::size_t{2} << 30; // per buffer; bytes moved = 2x
  std::uint64_t gemm_n = 8192;                   // the timed m = n = k
  std::uint64_t gemm_check_n = 256;              // the small product checked in full
};
DeviceSizes device_sizes(const GpuOptions& options);

// Which of a device's checks to run (the groups --check asked for).
struct DeviceWork {
  bool smoke = true;      // the known-answer kernel and the memory bandwidth
  bool gemm = true;       // the GEMM's known answer
  bool gemm_timed = true; // the large product checked and timed (not under --quick)
  bool sdc = false;       // the SDC chain (sdc.hpp), after the other measurements
  bool quick = false;     // --quick: the SDC chain's short budget
};

class GpuSetup; // setup.hpp

// What a device's thread shares with the run.
struct DeviceRun {
  GpuSetup* setup = nullptr;        // cuBLASLt's handles (work.gemm)
  std::size_t index = 0;            // the device's place in the GPU list (its handle)
  std::shared_future<void> measure; // ready when measurements may run alone
  const SdcOptions* sdc = nullptr;  // the SDC check's options (work.sdc)
};

// The checks of one device, on the calling thread: "gpu.<i>.smoke" and "gpu.<i>.bandwidth"
// (work.smoke), "gpu.<i>.gemm_bf16" (work.gemm), "gpu.<i>.sdc" and "gpu.<i>.clocks" (work.sdc). The
// device's primary context is retained into `held` (it stays for the rest of the run) and made
// current. The known answers run at once (beside the set-up); the bandwidth and the GEMM's timing
// wait for `run.measure`. Never fails as a whole: each check carries its own failure, and its own
// time (waits left out; the GEMM's includes its handle's set-up).
std::vector<CheckResult> device_checks(const cuda::Api& api, const DeviceInfo& device,
                                       std::optional<cuda::PrimaryContext>& held,
                                       const DeviceRun& run, const DeviceSizes& sizes,
                                       const DeviceWork& work);

} // namespace envlock::verify
