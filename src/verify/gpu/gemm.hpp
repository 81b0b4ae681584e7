// The BF16 GEMM check of one device: cuBLASLt's product of two BF16 matrices filled on the GPU
// with known values (known::gemm_input_bits), checked on the host against an FP64 reference
// within gemm_entry_within_tolerance (a small product in full, sampled entries of the large one),
// then timed: the mean of 20 runs after 5 warm-up runs, as TFLOP/s. The known answer and the
// timing run apart, so that the timing waits until nothing else is set up.
#pragma once

#include "verify/check.hpp"
#include "verify/gpu/cublaslt.hpp"
#include "verify/gpu/device.hpp"
#include "verify/gpu/kernels.hpp"

#include <cstdint>
#include <optional>

namespace envlock::verify {

// One planned n x n x n product with its operands (filled with the known inputs) and workspace.
struct GemmProduct {
  std::uint64_t n = 0;
  cuda::DeviceBuffer a;
  cuda::DeviceBuffer b;
  cuda::DeviceBuffer d;
  blaslt::Gemm gemm;
  cuda::DeviceBuffer workspace;
};

// The GEMM check's known answer on the current context, with the device's cuBLASLt handle: the
// small product checked in full and, when `timed`, the large product planned and its sampled
// entries checked. Fills `check` (outcome, expected, found, details) and returns the large
// product for time_gemm (nothing when not timed). Fails with the first driver or cuBLASLt error.
Result<std::optional<GemmProduct>>
verify_gemm(const cuda::Api& api, const SmokeKernels& kernels, const blaslt::Library& blas,
            const blaslt::Handle& handle, const DeviceSizes& sizes, bool timed, CheckResult& check);

// Times the large product: the mean of 20 runs after 5 warm-up runs, as TFLOP/s in `check`'s
// figures and found.
Status time_gemm(const cuda::Api& api, const GemmProduct& product, CheckResult& check);

} // namespace envlock::verify
