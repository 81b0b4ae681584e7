// The SDC check of one GPU (docs/manual/verify.md, "The SDC check"): a fixed chain of BF16
// products that gives the same bytes on every GPU of one kind. A (m x m) and X0 (m x n) are made
// on the GPU from fixed seeds (known::gemm_input_bits); step s computes D = A X(s-1) with cuBLASLt
// (FP32 output, an algorithm chosen once with split-K reductions excluded) and folds it into
// X(s) = sdc_fold_bits(D) (kernels/smoke.cu). Every `every`-th step's X is copied to the host and
// digested (SHA-256 over the SHA-256 of each 4 MiB slice of its bytes) while the GPU goes on; the
// run ends on such a step once the time budget is spent, so the last step is a digested one. Then
// the first `every` steps run again from X0: the chain repeated on this GPU when that digest is the
// first checkpoint's. Beside the chain the GPU's temperature, SM clock and clock-event reasons are
// sampled.
#pragma once

#include "verify/check.hpp"
#include "verify/gpu/cublaslt.hpp"
#include "verify/gpu/device.hpp"
#include "verify/gpu/gpu_checks.hpp"
#include "verify/gpu/kernels.hpp"

#include <cstdint>

namespace envlock::verify {

// The chain's fixed shape: D (m x n) = A (m x m) X (m x n), a digest every `every` steps.
struct ChainShape {
  std::uint64_t m = 0;
  std::uint64_t n = 0;
  std::uint64_t every = 0;
  const char* id = ""; // names the chain in the report; digests compare only within one id
};

// The shape of `shape` (full: 16384 x 16384 x 4096, every 256 steps; small: 64 x 64 x 32,
// every 4 steps).
ChainShape chain_shape(SdcShape shape);

// The check rows of one GPU: "gpu.N.sdc" (the chain) and "gpu.N.clocks" (the GPU under load),
// group "sdc".
std::vector<CheckResult> new_sdc_checks(const DeviceInfo& device);

// Runs the chain on the current context (the GPU `device`) and fills `chain` and `clocks`.
// Fails with the first driver or cuBLASLt error (the caller fails both checks with it).
Status run_sdc(const cuda::Api& api, const SmokeKernels& kernels, const blaslt::Library& blas,
               const blaslt::Handle& handle, const DeviceInfo& device, const SdcOptions& options,
               bool quick, CheckResult& chain, CheckResult& clocks);

} // namespace envlock::verify
