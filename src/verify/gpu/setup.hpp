// The set-up of the GEMM and all-reduce checks, run on threads of their own while the GPUs are
// listed, the smoke kernels and the host checks run: it is set-up, not a measurement. cuBLASLt is
// loaded and a handle made for each GPU (the GPU's primary context current on the set-up
// thread); NCCL is loaded, its communicators made (ncclCommInitAll) and its first collective run
// (the all-reduce's known answer: NCCL connects and loads its kernels then). The loads start at
// once; the per-GPU work waits for the list of GPUs. Nothing is measured until wait() returns. NCCL
// loads first (its communicators are the longest part), then cuBLASLt.
#pragma once

#include "verify/gpu/cublaslt.hpp"
#include "verify/gpu/cuda_driver.hpp"
#include "verify/gpu/cuda_raii.hpp"
#include "verify/gpu/device.hpp"
#include "verify/gpu/nccl_api.hpp"

#include <atomic>
#include <filesystem>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace envlock::verify {

// cuBLASLt's set-up: the library, and one handle per GPU (in the order of the GPU list).
struct BlasSetup {
  Result<blaslt::Library> library = env_error("cuBLASLt: not loaded");
  std::vector<Result<blaslt::Handle>> handles;
  double load_seconds = 0;
  std::vector<double> handle_seconds;
};

// NCCL's set-up: the library and the communicators of every GPU.
struct NcclSetup {
  Result<nccl::Library> library = env_error("NCCL: not loaded");
  Result<nccl::Communicators> comms = env_error("NCCL: no communicators");
  // "nccl.allreduce", run right after the communicators (allreduce_known_answer).
  Result<CheckResult> known_answer = env_error("NCCL: the known answer did not run");
  double load_seconds = 0;
  double init_seconds = 0;
  double known_answer_seconds = 0;
};

class GpuSetup {
public:
  // Starts loading what `blas` and `nccl` ask for, from `library_dirs` (python_library_dirs)
  // before the dynamic linker's search. `loaded` is called once, on a set-up thread, when both
  // libraries are loaded (or failed to load), before the per-GPU work.
  GpuSetup(const cuda::Api& api, std::vector<std::filesystem::path> library_dirs, bool blas,
           bool nccl, std::function<void()> loaded);
  GpuSetup(const GpuSetup&) = delete;
  GpuSetup& operator=(const GpuSetup&) = delete;
  GpuSetup(GpuSetup&&) = delete;
  GpuSetup& operator=(GpuSetup&&) = delete;
  // Gives the set-up nothing to work on (when it was not given the GPUs) and waits for it.
  ~GpuSetup();

  // The GPUs to set up; empty (or never called) when the GPUs could not be listed. Once only.
  void set_devices(std::vector<DeviceInfo> devices);

  // Waits for cuBLASLt's set-up (the GEMM's known answer may run then).
  const BlasSetup& blas() const;
  // Waits for the whole set-up: after it, measurements run alone.
  void wait() const;
  // After wait(): NCCL's set-up.
  NcclSetup& nccl();

private:
  void blas_thread();
  void nccl_thread(std::promise<void>& loaded);
  void one_loaded(); // calls m_loaded after the last library's load

  const cuda::Api* m_api;
  std::vector<std::filesystem::path> m_library_dirs;
  std::promise<std::vector<DeviceInfo>> m_devices_promise;
  std::shared_future<std::vector<DeviceInfo>> m_devices;
  std::function<void()> m_loaded;
  std::atomic<int> m_loading{0}; // libraries still loading
  bool m_devices_given = false;
  std::vector<cuda::PrimaryContext> m_contexts; // retained by the set-up; outlive the handles
  BlasSetup m_blas;
  NcclSetup m_nccl;
  std::shared_future<void> m_blas_done;
  std::shared_future<void> m_nccl_done;
  std::shared_future<void> m_nccl_loaded; // NCCL's library loaded (or not asked for)
  std::jthread m_blas_thread;             // last: started after every member above exists
  std::jthread m_nccl_thread;
};

} // namespace envlock::verify
