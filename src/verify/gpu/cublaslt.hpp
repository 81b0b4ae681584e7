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
#include <utility>
#include <vector>

namespace envlock::verify::blaslt {

using Status_ = int; // cublasStatus_t; 0 is CUBLAS_STATUS_SUCCESS
using HandleType = struct HandleOpaque*;
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

inline constexpr int k_compute_32f = 68;        // CUBLAS_COMPUTE_32F
inline constexpr int k_r_32f = 0;               // CUDA_R_32F
inline constexpr int k_r_16bf = 14;             // CUDA_R_16BF
inline constexpr int k_pref_max_workspace = 1;  // CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES
inline constexpr int k_pref_reduction_mask = 3; // CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK
// cublasLtMatmulAlgoConfigAttributes_t: ID, TILE_ID, SPLITK_NUM, REDUCTION_SCHEME, CTA_SWIZZLING,
// CUSTOM_OPTION, STAGES_ID (each a 32-bit integer)
inline constexpr int k_config_id = 0;
inline constexpr int k_config_tile = 1;
inline constexpr int k_config_splitk = 2;
inline constexpr int k_config_reduction = 3;
inline constexpr int k_config_swizzle = 4;
inline constexpr int k_config_custom = 5;
inline constexpr int k_config_stages = 6;

struct Api {
  Status_ (*create)(HandleType*) = nullptr;
  Status_ (*destroy)(HandleType) = nullptr;
  std::size_t (*get_version)() = nullptr;
  Status_ (*desc_create)(MatmulDesc*, int, int) = nullptr;
  Status_ (*desc_destroy)(MatmulDesc) = nullptr;
  Status_ (*layout_create)(Layout*, int, std::uint64_t, std::uint64_t, std::int64_t) = nullptr;
  Status_ (*layout_destroy)(Layout) = nullptr;
  Status_ (*pref_create)(Preference*) = nullptr;
  Status_ (*pref_destroy)(Preference) = nullptr;
  Status_ (*pref_set_attribute)(Preference, int, const void*, std::size_t) = nullptr;
  Status_ (*heuristic)(HandleType, MatmulDesc, Layout, Layout, Layout, Layout, Preference, int,
                       HeuristicResult*, int*) = nullptr;
  Status_ (*matmul)(HandleType, MatmulDesc, const void*, const void*, Layout, const void*, Layout,
                    const void*, const void*, Layout, void*, Layout, const Algo*, void*,
                    std::size_t, cuda::CuStream) = nullptr;
  Status_ (*algo_config_get)(const Algo*, int, void*, std::size_t, std::size_t*) = nullptr;
};

// What a planned product runs with, read back from its algorithm (cublasLtMatmulAlgoConfig-
// GetAttribute): the algorithm id and the settings that change its bytes.
struct AlgoConfig {
  std::int32_t id = 0;
  std::uint32_t tile = 0;
  std::int32_t splitk = 0;
  std::uint32_t reduction = 0;
  std::uint32_t swizzle = 0;
  std::uint32_t custom = 0;
  std::uint32_t stages = 0;
};

// The output type of a planned product.
enum class Output { bf16, fp32 };

// Whether the heuristic may choose a split-K reduction (its partial sums may be added in any
// order, or with atomics): `none` keeps only algorithms without one.
enum class Reduction { any, none };

struct Library {
  util::DlHandle library;
  Api api;
  std::string path;    // the file loaded
  std::string version; // cublasLtGetVersion as MAJOR.MINOR.PATCH
};

// Loads the first of `candidates` (paths or sonames) that opens and resolves every entry point.
// Fails (environment error) naming the candidates or the missing symbol.
Result<Library> load(const std::vector<std::string>& candidates);

// A cuBLASLt handle (cublasLtCreate), made for the device whose context is current.
class Handle {
public:
  // Fails with "cublasLtCreate: cuBLAS status N".
  static Result<Handle> create(const Api& api);
  Handle(Handle&& other) noexcept
      : m_api(std::exchange(other.m_api, nullptr)),
        m_handle(std::exchange(other.m_handle, nullptr)) {}
  Handle& operator=(Handle&&) = delete;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle();
  [[nodiscard]] HandleType get() const { return m_handle; }

private:
  Handle(const Api* api, HandleType handle) : m_api(api), m_handle(handle) {}
  const Api* m_api = nullptr;
  HandleType m_handle = nullptr;
};

// A column-major BF16 product D = A B (A m x k, B k x n, D m x n, FP32 accumulation) planned once
// for its sizes with a handle of the device (which must outlive it): descriptors and the
// heuristic's first algorithm.
class Gemm {
public:
  // Fails with the cuBLASLt call and status, or "no cuBLASLt algorithm for ..." when the
  // heuristic returns none.
  static Result<Gemm> plan(const Api& api, const Handle& handle, std::uint64_t m, std::uint64_t n,
                           std::uint64_t k, std::size_t workspace_bytes,
                           Output output = Output::bf16, Reduction reduction = Reduction::any);
  Gemm(Gemm&& other) noexcept;
  Gemm& operator=(Gemm&&) = delete;
  Gemm(const Gemm&) = delete;
  Gemm& operator=(const Gemm&) = delete;
  ~Gemm();

  // Enqueues D = A B on `stream`; a, b, d and workspace are device addresses.
  Status run(const void* a, const void* b, void* d, void* workspace, cuda::CuStream stream) const;

  // The chosen algorithm's configuration; fails with the cuBLASLt call and status.
  [[nodiscard]] Result<AlgoConfig> config() const;

private:
  Gemm(const Api* api, HandleType handle) : m_api(api), m_handle(handle) {}
  const Api* m_api = nullptr;
  HandleType m_handle = nullptr; // not owned
  MatmulDesc m_desc = nullptr;
  Layout m_a = nullptr;
  Layout m_b = nullptr;
  Layout m_d = nullptr;
  Algo m_algo{};
  std::size_t m_workspace = 0;
};

} // namespace envlock::verify::blaslt
