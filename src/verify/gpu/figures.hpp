// The arithmetic of the GPU checks, kept apart from the GPU so it is tested without one:
// bandwidth and all-reduce bus bandwidth as nccl-tests defines them, the known-answer comparison
// and the BF16 GEMM tolerance.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace envlock::verify {

// Bytes per second in units of 1e9 (GB/s): `bytes` moved in `seconds`. 0 when seconds <= 0.
double gbps(double bytes, double seconds);

// nccl-tests' all-reduce bus bandwidth from the algorithm bandwidth (bytes / time):
// algbw * 2 (n - 1) / n. 0 for one rank (nothing crosses a link).
double allreduce_busbw(double algbw, int ranks);

// Matrix product rate in TFLOP/s: 2 m n k operations in `seconds`.
double gemm_tflops(std::uint64_t m, std::uint64_t n, std::uint64_t k, double seconds);

// The outcome of comparing the known-answer kernel's output with known::known_answer.
struct Mismatches {
  std::size_t count = 0;
  std::size_t first = 0;         // index of the first wrong element (when count > 0)
  std::uint32_t first_found = 0; // its value
  std::uint32_t first_expected = 0;
};

// Compares found[i] with known::known_answer(i) for every i, exactly.
Mismatches known_answer_mismatches(const std::vector<std::uint32_t>& found);

// Compares every element of an all-reduce's output with `expected`, exactly.
Mismatches allreduce_mismatches(const std::vector<float>& found, float expected);

// The BF16 GEMM tolerance: |found - reference| <= 2^-8 |reference| + 2^-14 sum_k |a_ik b_kj|.
// The first term covers rounding the FP32 result to BF16 (half an ulp is 2^-9 relative), the
// second FP32 accumulation in any order. A wrong entry misses by about |reference|.
bool gemm_entry_within_tolerance(double found, double reference, double abs_sum);

} // namespace envlock::verify
