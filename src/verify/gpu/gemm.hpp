// The BF16 GEMM check of one device: cuBLASLt's product of two BF16 matrices filled on the GPU
// with known values (known::gemm_input_bits), checked on the host against an FP64 reference
// within gemm_entry_within_tolerance (a small product in full, sampled entries of the large one),
// then timed: the mean of 20 runs after 5 warm-up runs, as TFLOP/s.
#pragma once

#include "verify/check.hpp"
#include "verify/gpu/cublaslt.hpp"
#include "verify/gpu/device.hpp"
#include "verify/gpu/kernels.hpp"

namespace envlock::verify {

// Fills `check` (outcome, found, figures, details) with the GEMM's result on the current context.
// Fails with the first driver or cuBLASLt error.
Status run_gemm_check(const cuda::Api& api, const SmokeKernels& kernels,
                      const blaslt::Library& blas, const DeviceSizes& sizes, CheckResult& check);

} // namespace envlock::verify
