#include "verify/gpu/gemm.hpp"

#include "verify/gpu/figures.hpp"
#include "verify/gpu/known_answer.hpp"
#include "verify/gpu/timer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace envlock::verify {

namespace {

constexpr std::size_t k_workspace = std::size_t{64} << 20;
constexpr std::uint64_t k_samples = 256;
constexpr std::uint32_t k_seed_a = 1;
constexpr std::uint32_t k_seed_b = 2;

Status fill(const cuda::Api& api, const SmokeKernels& kernels, const cuda::DeviceBuffer& buffer,
            std::uint32_t seed) {
  std::uint64_t elements = buffer.bytes() / 2;
  cuda::CuDevicePtr ptr = buffer.ptr();
  const auto grid = static_cast<unsigned>((elements + k_block_threads - 1) / k_block_threads);
  return launch(api, kernels.fill_bf16, grid, k_block_threads, nullptr, {&ptr, &seed, &elements});
}

Result<GemmProduct> make_product(const cuda::Api& api, const SmokeKernels& kernels,
                                 const blaslt::Api& blas, const blaslt::Handle& handle,
                                 std::uint64_t n) {
  const std::size_t bytes = n * n * 2;
  ENVLOCK_TRY_ASSIGN(auto a, cuda::DeviceBuffer::allocate(api, bytes));
  ENVLOCK_TRY_ASSIGN(auto b, cuda::DeviceBuffer::allocate(api, bytes));
  ENVLOCK_TRY_ASSIGN(auto d, cuda::DeviceBuffer::allocate(api, bytes));
  ENVLOCK_TRY(fill(api, kernels, a, k_seed_a));
  ENVLOCK_TRY(fill(api, kernels, b, k_seed_b));
  ENVLOCK_TRY_ASSIGN(auto gemm, blaslt::Gemm::plan(blas, handle, n, n, n, k_workspace));
  ENVLOCK_TRY_ASSIGN(auto workspace, cuda::DeviceBuffer::allocate(api, k_workspace));
  return GemmProduct{
      n, std::move(a), std::move(b), std::move(d), std::move(gemm), std::move(workspace)};
}

Status run_once(const GemmProduct& product, cuda::CuStream stream) {
  return product.gemm.run(product.a.address(), product.b.address(), product.d.address(),
                          product.workspace.address(), stream);
}

// Whether entry (row, col) of the product, `found`, is within tolerance of the FP64 reference.
bool entry_ok(std::uint64_t n, std::uint64_t row, std::uint64_t col, std::uint16_t found_bits,
              double& worst) {
  double reference = 0;
  double abs_sum = 0;
  for (std::uint64_t p = 0; p < n; ++p) {
    const double a = known::bf16_to_float(known::gemm_input_bits(k_seed_a, row + p * n));
    const double b = known::bf16_to_float(known::gemm_input_bits(k_seed_b, p + col * n));
    reference += a * b;
    abs_sum += std::fabs(a * b);
  }
  const double found = known::bf16_to_float(found_bits);
  worst = std::max(worst, std::fabs(found - reference));
  return gemm_entry_within_tolerance(found, reference, abs_sum);
}

enum class Entries { all, sampled };

// Multiplies once and compares every entry or k_samples entries spread over the column-major
// product. Returns the number of entries out of tolerance.
Result<std::uint64_t> product_errors(const cuda::Api& api, const GemmProduct& product,
                                     Entries entries, double& worst) {
  ENVLOCK_TRY(run_once(product, nullptr));
  const std::uint64_t n = product.n;
  const std::uint64_t total = n * n;
  std::uint64_t errors = 0;
  if (entries == Entries::all) {
    std::vector<std::uint16_t> d(total);
    ENVLOCK_TRY(
        cuda::check(api, api.memcpy_dtoh(d.data(), product.d.ptr(), 2 * total), "cuMemcpyDtoH"));
    for (std::uint64_t index = 0; index < total; ++index) {
      errors += entry_ok(n, index % n, index / n, d[index], worst) ? 0 : 1;
    }
    return errors;
  }
  const std::uint64_t stride = total / k_samples + 1;
  for (std::uint64_t i = 0, index = 0; i < k_samples; ++i, index = (index + stride) % total) {
    std::uint16_t bits = 0;
    ENVLOCK_TRY(
        cuda::check(api, api.memcpy_dtoh(&bits, product.d.ptr() + 2 * index, 2), "cuMemcpyDtoH"));
    errors += entry_ok(n, index % n, index / n, bits, worst) ? 0 : 1;
  }
  return errors;
}

} // namespace

Result<std::optional<GemmProduct>> verify_gemm(const cuda::Api& api, const SmokeKernels& kernels,
                                               const blaslt::Library& blas,
                                               const blaslt::Handle& handle,
                                               const DeviceSizes& sizes, bool timed,
                                               CheckResult& check) {
  check.details["library"] = blas.path;
  check.details["cublaslt_version"] = blas.version;
  check.details["tolerance"] = "|found - ref| <= 2^-8 |ref| + 2^-14 sum|a b|";
  const std::uint64_t small = sizes.gemm_check_n;
  double worst = 0;
  std::uint64_t errors = 0;
  {
    ENVLOCK_TRY_ASSIGN(auto product, make_product(api, kernels, blas.api, handle, small));
    ENVLOCK_TRY_ASSIGN(errors, product_errors(api, product, Entries::all, worst));
  }
  nlohmann::json checked = {{"full", std::to_string(small) + "^3"}};
  std::optional<GemmProduct> large;
  if (timed) {
    const std::uint64_t n = sizes.gemm_n;
    ENVLOCK_TRY_ASSIGN(auto product, make_product(api, kernels, blas.api, handle, n));
    large.emplace(std::move(product));
    ENVLOCK_TRY_ASSIGN(auto sampled_errors, product_errors(api, *large, Entries::sampled, worst));
    errors += sampled_errors;
    checked["sampled"] = std::to_string(k_samples) + " entries of " + std::to_string(n) + "^3";
  }
  checked["max_abs_error"] = worst;
  check.details["checked"] = std::move(checked);
  check.expected = "within tolerance";
  check.found = timed ? "within tolerance"
                      : "within tolerance (" + std::to_string(small) + "^3; not timed: --quick)";
  if (errors > 0) {
    check.outcome = Outcome::fail;
    check.found = std::to_string(errors) + " entries outside";
    check.reason = std::to_string(errors) + " product entries outside the tolerance";
  } else {
    check.outcome = Outcome::pass;
  }
  return large;
}

Status time_gemm(const cuda::Api& api, const GemmProduct& product, CheckResult& check) {
  ENVLOCK_TRY_ASSIGN(auto stream, cuda::Stream::create(api));
  const auto run = [&]() { return run_once(product, stream.get()); };
  ENVLOCK_TRY_ASSIGN(double seconds,
                     time_iterations(api, stream.get(), k_warmup_runs, k_timed_runs, run));
  const std::uint64_t n = product.n;
  const double tflops = gemm_tflops(n, n, n, seconds);
  check.figures.push_back({"gemm_bf16_" + std::to_string(n), tflops, "TFLOP/s"});
  if (check.outcome == Outcome::pass) {
    check.found = std::to_string(static_cast<long long>(std::lround(tflops))) + // NOLINT
                  " TFLOP/s";
  }
  return {};
}

} // namespace envlock::verify
