// The values the smoke kernels compute, written once for both sides: kernels/*.cu include this
// header (compiled by nvcc for the GPU) and the verifier includes it to check the GPU's answers
// exactly on the host. Only IEEE-754 single-precision fused multiply-adds (correctly rounded on
// both sides) and 32-bit integer arithmetic are used, so host and GPU agree bit for bit.
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#define ENVLOCK_HOST_DEVICE __host__ __device__
#else
#include <bit>
#include <cmath>
#define ENVLOCK_HOST_DEVICE
#endif

namespace envlock::verify::known {

// The IEEE-754 bits of `value`.
ENVLOCK_HOST_DEVICE inline std::uint32_t float_bits(float value) {
#ifdef __CUDACC__
  return __float_as_uint(value);
#else
  return std::bit_cast<std::uint32_t>(value);
#endif
}

// A 32-bit integer hash of `index` (multiply, xor-shift), the same on host and GPU.
ENVLOCK_HOST_DEVICE inline std::uint32_t hash32(std::uint32_t index) {
  std::uint32_t h = index * 0x9E3779B1U;
  h ^= h >> 15;
  h *= 0x85EBCA77U;
  h ^= h >> 13;
  h *= 0xC2B2AE3DU;
  h ^= h >> 16;
  return h;
}

// The known answer of element `index`: a chain of 32 single-precision fused multiply-adds seeded
// by the index, its bits xor-ed with the integer hash. Exercises the FP32 and integer pipes.
ENVLOCK_HOST_DEVICE inline std::uint32_t known_answer(std::uint32_t index) {
  float value = static_cast<float>(index & 0xFFFFU) * 0.0078125F;
  for (int step = 0; step < 32; ++step) {
#ifdef __CUDACC__
    value = __fmaf_rn(value, 0.99951171875F, static_cast<float>(step) * 0.25F);
#else
    value = std::fmaf(value, 0.99951171875F, static_cast<float>(step) * 0.25F);
#endif
  }
  return float_bits(value) ^ hash32(index);
}

// The BF16 bits of GEMM input element `index` of the matrix seeded with `seed`: k/128 for k in
// [-128, 127], exactly representable in BF16 (so the host reference uses the very same inputs).
ENVLOCK_HOST_DEVICE inline std::uint16_t gemm_input_bits(std::uint32_t seed, std::uint32_t index) {
  const auto k = static_cast<int>(hash32(index ^ (seed * 0x27D4EB2FU)) >> 24U) - 128;
  const float value = static_cast<float>(k) * 0.0078125F;
  return static_cast<std::uint16_t>(float_bits(value) >> 16U);
}

// The float value of BF16 `bits`.
ENVLOCK_HOST_DEVICE inline float bf16_to_float(std::uint16_t bits) {
  const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16U;
#ifdef __CUDACC__
  return __uint_as_float(wide);
#else
  return std::bit_cast<float>(wide);
#endif
}

// The BF16 bits of the SDC chain's fold of one FP32 product entry: its distance to the nearest
// integer, in [-0.5, 0.5], rounded to BF16 (to nearest, ties to even). Every operation is exact
// or integer (rint, a subtraction of two floats an integer apart), so host and GPU agree bit for
// bit; the fold keeps the chain's values bounded and carries the product's low bits forward.
ENVLOCK_HOST_DEVICE inline std::uint16_t sdc_fold_bits(float value) {
#ifdef __CUDACC__
  const float folded = __fsub_rn(value, rintf(value));
#else
  const float folded = value - std::rint(value);
#endif
  const std::uint32_t bits = float_bits(folded);
  const std::uint32_t rounding = 0x7FFFU + ((bits >> 16U) & 1U);
  return static_cast<std::uint16_t>((bits + rounding) >> 16U);
}

} // namespace envlock::verify::known
