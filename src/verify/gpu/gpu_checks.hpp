// The GPU checks (seed checks 1-3 on the device side): GPU inventory through the CUDA driver API,
// the embedded smoke kernels (known answer + bandwidth), a BF16 GEMM through the image's
// cuBLASLt, the copy bandwidth of the links between GPUs and to the host, and the NCCL
// all-reduce (known answer + size sweep). Everything is loaded with dlopen; nothing here links
// against CUDA.
//
// The order of a run: the driver starts (cuInit) while cuBLASLt and NCCL load on threads of their
// own (GpuSetup); then each GPU's thread runs its known answers while the set-up makes the
// cuBLASLt handles and the NCCL communicators and the caller runs the host checks. Measurements
// (memory bandwidth, GEMM timing, then the links, then the all-reduce sweep) wait until the
// set-up is done and the host checks have run, so that nothing runs beside them but each other on
// separate GPUs (the per-GPU bandwidth and GEMM timing).
#pragma once

#include "lock/lock.hpp"
#include "verify/check.hpp"
#include "verify/gpu/sampler.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace envlock::verify {

// Whether a group of checks runs: not asked for (no result at all), run, or skipped with the
// reason that --quick leaves it out (it runs under --quick only when --check names it).
enum class Planned { off, run, skip_quick };

// The SDC check's chain shape (docs/manual/verify.md, "The SDC check"): `full` on GPUs; `small`
// (the hidden --sdc-shape small) only for the stand-ins of the tests, which multiply on the CPU.
enum class SdcShape { full, small };

// The SDC check (--check sdc): a fixed chain of BF16 products run on every GPU at once.
struct SdcOptions {
  bool run = false;
  double seconds = 45;     // the chain's time budget per GPU (--sdc-seconds); --quick: 1.5
  std::uint64_t steps = 0; // a fixed number of steps instead (--sdc-steps), rounded up to a digest
  SdcShape shape = SdcShape::full;
  // Test-only (--inject-bitflip GPU:STEP): flips one bit of that GPU's chain state after STEP.
  std::optional<std::pair<int, std::uint64_t>> inject;
  // Reads temperatures, clocks and clock-event reasons during the chain; null: not sampled.
  std::shared_ptr<GpuSampler> sampler;
  std::string sampler_problem;    // why there is no sampler, when there is none
  std::string driver_api_version; // set by run_gpu_checks
};

struct GpuOptions {
  bool no_gpu = false;               // skip every GPU check, with that reason
  std::vector<int> devices;          // empty: all visible devices
  std::uint64_t sweep_min = 1 << 20; // all-reduce sweep, bytes
  std::uint64_t sweep_max = std::uint64_t{1} << 30;
  bool quick = false; // a smaller bandwidth buffer, the GEMM's small product only, untimed
  // The groups asked for (--check): work for the others is not done at all, so a prolog's
  // `--check gpu,smoke` loads neither cuBLASLt nor NCCL.
  bool smoke = true;                // the known-answer kernel and the memory bandwidth
  bool gemm = true;                 // cuBLASLt BF16 GEMM
  Planned links = Planned::run;     // the copy bandwidth of every link
  Planned allreduce = Planned::run; // NCCL all-reduce and its busbw sweep
  SdcOptions sdc;                   // the SDC check, only when --check names it
  // site-packages folders whose nvidia/*/lib and torch/lib hold the NCCL and cuBLASLt PyTorch
  // loads (verify-core passes its --site-packages / found environments); empty: the defaults of
  // python_library_dirs (VIRTUAL_ENV, UV_PROJECT_ENVIRONMENT, /opt/venv, python3 on PATH).
  std::vector<std::filesystem::path> site_packages;
  // Ready once the caller's host checks have run: the measurements wait for it too. Not valid:
  // nothing to wait for.
  std::shared_future<void> measure_after;
  // Called once, from any thread, when the set-up's libraries (cuBLASLt, NCCL) are loaded, or
  // there are none to load, or the run ends before: the caller's host checks, which load
  // libraries too, start then rather than wait on the dynamic linker behind them.
  std::function<void()> libraries_loaded;
};

// The skip reason of a group --quick leaves out: "not run under --quick; --check links runs it".
std::string quick_skip_reason(const std::string& group);

// Runs the GPU checks against the lock's expectations. Never throws; a missing driver is a failed
// check with the reason (or a skip when options.no_gpu). Each check's seconds is its own work
// (waits left out; the set-up of the GEMM and all-reduce counted with them, see device.hpp and
// allreduce.hpp).
std::vector<CheckResult> run_gpu_checks(const lock::Lock& lock, const GpuOptions& options);

} // namespace envlock::verify
