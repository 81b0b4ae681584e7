// The embedded smoke kernels (kernels/*.cu, compiled by nvcc into a fatbin at build time), loaded
// into the current context, and a launch helper.
#pragma once

#include "verify/gpu/cuda_raii.hpp"

#include <initializer_list>
#include <string>

namespace envlock::verify {

// The reason given when the build had no nvcc.
// Threads per block of every smoke kernel launch.
inline constexpr unsigned k_block_threads = 256;

inline constexpr const char* k_kernels_not_built =
    "smoke kernels not built in: envlock-verify was built without nvcc";

// True when the fatbin is embedded (ENVLOCK_HAVE_KERNELS) and not empty.
bool kernels_built_in();

// The kernels of kernels/smoke.cu in the current context.
struct SmokeKernels {
  cuda::Module module;
  cuda::CuFunction known_answer = nullptr; // (uint32_t* out, uint32_t n)
  cuda::CuFunction copy = nullptr;         // (const uint4* src, uint4* dst, uint64_t n)
  cuda::CuFunction fill_bf16 = nullptr;    // (uint16_t* out, uint32_t seed, uint64_t n)
  cuda::CuFunction sdc_fold = nullptr;     // (const float* d, uint16_t* x, uint64_t n)
};

// Loads the embedded fatbin into the current context. Fails with k_kernels_not_built, or the
// driver's error (e.g. no machine code or PTX for this GPU's architecture).
Result<SmokeKernels> load_smoke_kernels(const cuda::Api& api);

// Launches `function` on a 1-D grid with the kernel arguments' addresses `args`.
Status launch(const cuda::Api& api, cuda::CuFunction function, unsigned grid, unsigned block,
              cuda::CuStream stream, std::initializer_list<void*> args);

} // namespace envlock::verify
