// The GPU checks (seed checks 1-3 on the device side): GPU inventory through the CUDA driver API,
// the embedded smoke kernels (known answer + bandwidth), a BF16 GEMM through the image's
// cuBLASLt, and the NCCL all-reduce (known answer + size sweep). Everything is loaded with
// dlopen; nothing here links against CUDA.
#pragma once

#include "lock/lock.hpp"
#include "verify/check.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace envlock::verify {

struct GpuOptions {
  bool no_gpu = false;               // skip every GPU check, with that reason
  std::vector<int> devices;          // empty: all visible devices
  std::uint64_t sweep_min = 1 << 20; // all-reduce sweep, bytes
  std::uint64_t sweep_max = std::uint64_t{1} << 30;
  bool quick = false; // smaller sizes, for tests
  // The groups asked for (--check): work for the others is not done at all, so a prolog's
  // `--check gpu,smoke` loads neither cuBLASLt nor NCCL.
  bool smoke = true;     // the known-answer kernel and the memory bandwidth
  bool gemm = true;      // cuBLASLt BF16 GEMM
  bool allreduce = true; // NCCL all-reduce and its busbw sweep
  // site-packages folders whose nvidia/*/lib and torch/lib hold the NCCL and cuBLASLt PyTorch
  // loads (verify-core passes its --site-packages / found environments); empty: the defaults of
  // python_library_dirs (VIRTUAL_ENV, UV_PROJECT_ENVIRONMENT, /opt/venv, python3 on PATH).
  std::vector<std::filesystem::path> site_packages;
};

// Runs the GPU checks against the lock's expectations. Never throws; a missing driver is a failed
// check with the reason (or a skip when options.no_gpu).
std::vector<CheckResult> run_gpu_checks(const lock::Lock& lock, const GpuOptions& options);

} // namespace envlock::verify
