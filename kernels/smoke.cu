// The GPU smoke kernels of envlock-verify, embedded as a fatbin (cmake/Kernels.cmake) and loaded
// through the CUDA driver API. extern "C" keeps the names unmangled for cuModuleGetFunction.
#include "../src/verify/gpu/known_answer.hpp"

#include <cstdint>

using envlock::verify::known::gemm_input_bits;
using envlock::verify::known::known_answer;
using envlock::verify::known::sdc_fold_bits;

// out[i] = known_answer(i) for i < n.
extern "C" __global__ void envlock_known_answer(std::uint32_t* out, std::uint32_t n) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = known_answer(i);
  }
}

// Copies n 16-byte vectors; each thread moves 4 of them, a block's loads all in flight together.
extern "C" __global__ void __launch_bounds__(256)
    envlock_copy(const uint4* __restrict__ src, uint4* __restrict__ dst, std::uint64_t n) {
  const std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x * 4 + threadIdx.x;
  if (base + 3 * blockDim.x < n) {
    const uint4 a = __ldcs(src + base);
    const uint4 b = __ldcs(src + base + blockDim.x);
    const uint4 c = __ldcs(src + base + 2 * blockDim.x);
    const uint4 d = __ldcs(src + base + 3 * blockDim.x);
    __stcs(dst + base, a);
    __stcs(dst + base + blockDim.x, b);
    __stcs(dst + base + 2 * blockDim.x, c);
    __stcs(dst + base + 3 * blockDim.x, d);
    return;
  }
  for (std::uint64_t i = base; i < n; i += blockDim.x) {
    dst[i] = src[i];
  }
}

// out[i] = the BF16 bits of GEMM input element i of the matrix `seed`.
extern "C" __global__ void envlock_fill_bf16(std::uint16_t* out, std::uint32_t seed,
                                             std::uint64_t n) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = gemm_input_bits(seed, static_cast<std::uint32_t>(i));
  }
}

// The SDC chain's fold (known_answer.hpp): x[i] = sdc_fold_bits(d[i]) for i < n, n a multiple of
// 4; each thread reads 16 bytes and writes 8.
extern "C" __global__ void __launch_bounds__(256)
    envlock_sdc_fold(const float4* __restrict__ d, uint2* __restrict__ x, std::uint64_t n) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n / 4) {
    const float4 v = __ldcs(d + i);
    const std::uint32_t lo =
        sdc_fold_bits(v.x) | (static_cast<std::uint32_t>(sdc_fold_bits(v.y)) << 16U);
    const std::uint32_t hi =
        sdc_fold_bits(v.z) | (static_cast<std::uint32_t>(sdc_fold_bits(v.w)) << 16U);
    x[i] = make_uint2(lo, hi);
  }
}
