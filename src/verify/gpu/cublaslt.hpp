// cuBLASLt, loaded with dlopen from the image (libcublasLt.so.13, .12, or unversioned), for the
// BF16 GEMM check. Types and enum values are declared from the library's documented ABI
// (cublasLt.h, library_types.h); every status is checked. RAII owners for its handles.
#pragma once

#include "util/dl.hpp"
#include "util/result.hpp"
#include "verify/gpu/cuda_driver.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace envlock::verify::blaslt {

using Status_ = int; // cublasStatus_t; 0 is CUBLAS_STATUS_SUCCESS
using Handle = struct HandleOpaque*;
using MatmulDesc = struct MatmulDescOpaque*;
using Layout = struct LayoutOpaque*;
using Preference = struct PreferenceOpaque*;
struct Algo {
  std::uint64_t data[8]; // NOLINT(modernize-avoid-c-arrays): cublasLtMatmulAlgo_t's layout
};
struct HeuristicResult {
  Algo algo;
  std::size_t workspace_size;
  Status_ state;
  float waves_count;
  int reserved[4]; // NOLINT(modernize-avoid-c-arrays): the ABI's layout
};

inline constexpr int k_compute_32f = 68;       // CUBLAS_COMPUTE_32F
inline constexpr int k_r_32f = 0;              // CUDA_R_32F
inline constexpr int k_r_16bf = 14;            // CUDA_R_16BF
inline constexpr int k_pref_max_workspace = 1; // CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES

struct Api {
  Status_ (*create)(Handle*) = nullptr;
  Status_ (*destroy)(Handle) = nullptr;
  std::size_t (*get_version)() = nullptr;
  Status_ (*desc_create)(MatmulDesc*, int, int) = nullptr;
  Status_ (*desc_destroy)(MatmulDesc) = nullptr;
  Status_ (*layout_create)(Layout*, int, std::uint64_t, std::uint64_t, std::int64_t) = nullptr;
  Status_ (*layout_destroy)(Layout) = nullptr;
  Status_ (*pref_create)(Preference*) = nullptr;
  Status_ (*pref_destroy)(Preference) = nullptr;
  Status_ (*pref_set_attribute)(Preference, int, const void*, std::size_t) = nullptr;
  Status_ (*heuristic)(Handle, MatmulDesc, Layout, Layout, Layout, Layout, Preference, int,
                       HeuristicResult*, int*) = nullptr;
  Status_ (*matmul)(Handle, MatmulDesc, const void*, const void*, Layout, const void*, Layout,
                    const void*, const void*, Layout, void*, Layout, const Algo*, void*,
                    std::size_t, cuda::CuStream) = nullptr;
};

struct Library {
  util::DlHandle library;
  Api api;
  std::string path;    // the file loaded
  std::string version; // cublasLtGetVersion as MAJOR.MINOR.PATCH
};

// Loads the first of `candidates` (paths or sonames) that opens and resolves every entry point.
// Fails (environment error) naming the candidates or the missing symbol.
Result<Library> load(const std::vector<std::string>& candidates);

// A column-major BF16 product D = A B (A m x k, B k x n, D m x n, FP32 accumulation) planned once
// for its sizes: handle, descriptors and the heuristic's first algorithm.
class Gemm {
public:
  // Fails with the cuBLASLt call and status, or "no cuBLASLt algorithm for ..." when the
  // heuristic returns none.
  static Result<Gemm> plan(const Api& api, std::uint64_t m, std::uint64_t n, std::uint64_t k,
                           std::size_t workspace_bytes);
  Gemm(Gemm&& other) noexcept;
  Gemm& operator=(Gemm&&) = delete;
  Gemm(const Gemm&) = delete;
  Gemm& operator=(const Gemm&) = delete;
  ~Gemm();

  // Enqueues D = A B on `stream`; a, b, d and workspace are device addresses.
  Status run(const void* a, const void* b, void* d, void* workspace, cuda::CuStream stream) const;

private:
  explicit Gemm(const Api* api) : m_api(api) {}
  const Api* m_api = nullptr;
  Handle m_handle = nullptr;
  MatmulDesc m_desc = nullptr;
  Layout m_a = nullptr;
  Layout m_b = nullptr;
  Layout m_d = nullptr;
  Algo m_algo{};
  std::size_t m_workspace = 0;
};

} // namespace envlock::verify::blaslt
