#include "verify/gpu/cublaslt.hpp"

#include <utility>

namespace envlock::verify::blaslt {

namespace {

Status resolve_all(const util::DlHandle& lib, Api& api) {
  ENVLOCK_TRY(util::dl_bind(lib, api.create, "cublasLtCreate"));
  ENVLOCK_TRY(util::dl_bind(lib, api.destroy, "cublasLtDestroy"));
  ENVLOCK_TRY(util::dl_bind(lib, api.get_version, "cublasLtGetVersion"));
  ENVLOCK_TRY(util::dl_bind(lib, api.desc_create, "cublasLtMatmulDescCreate"));
  ENVLOCK_TRY(util::dl_bind(lib, api.desc_destroy, "cublasLtMatmulDescDestroy"));
  ENVLOCK_TRY(util::dl_bind(lib, api.layout_create, "cublasLtMatrixLayoutCreate"));
  ENVLOCK_TRY(util::dl_bind(lib, api.layout_destroy, "cublasLtMatrixLayoutDestroy"));
  ENVLOCK_TRY(util::dl_bind(lib, api.pref_create, "cublasLtMatmulPreferenceCreate"));
  ENVLOCK_TRY(util::dl_bind(lib, api.pref_destroy, "cublasLtMatmulPreferenceDestroy"));
  ENVLOCK_TRY(util::dl_bind(lib, api.pref_set_attribute, "cublasLtMatmulPreferenceSetAttribute"));
  ENVLOCK_TRY(util::dl_bind(lib, api.heuristic, "cublasLtMatmulAlgoGetHeuristic"));
  ENVLOCK_TRY(util::dl_bind(lib, api.matmul, "cublasLtMatmul"));
  ENVLOCK_TRY(util::dl_bind(lib, api.algo_config_get, "cublasLtMatmulAlgoConfigGetAttribute"));
  return {};
}

Status check(Status_ status, const char* what) {
  if (status == 0) {
    return {};
  }
  return env_error(std::string(what) + ": cuBLAS status " + std::to_string(status));
}

} // namespace

Result<Library> load(const std::vector<std::string>& candidates) {
  ENVLOCK_TRY_ASSIGN(auto handle, util::dl_open(candidates));
  Library library;
  library.library = std::move(handle);
  ENVLOCK_TRY(resolve_all(library.library, library.api));
  library.path = util::dl_path(library.library);
  const std::size_t code = library.api.get_version();
  library.version = std::to_string(code / 10000) + "." + std::to_string((code % 10000) / 100) +
                    "." + std::to_string(code % 100);
  return library;
}

Result<Handle> Handle::create(const Api& api) {
  HandleType handle = nullptr;
  ENVLOCK_TRY(check(api.create(&handle), "cublasLtCreate"));
  return Handle(&api, handle);
}

Handle::~Handle() {
  if (m_api != nullptr && m_handle != nullptr) {
    static_cast<void>(m_api->destroy(m_handle));
  }
}

Result<Gemm> Gemm::plan(const Api& api, const Handle& handle, std::uint64_t m, std::uint64_t n,
                        std::uint64_t k, std::size_t workspace_bytes, Output output,
                        Reduction reduction) {
  Gemm gemm(&api, handle.get());
  ENVLOCK_TRY(
      check(api.desc_create(&gemm.m_desc, k_compute_32f, k_r_32f), "cublasLtMatmulDescCreate"));
  const auto ld = [](std::uint64_t rows) { return static_cast<std::int64_t>(rows); };
  ENVLOCK_TRY(
      check(api.layout_create(&gemm.m_a, k_r_16bf, m, k, ld(m)), "cublasLtMatrixLayoutCreate"));
  ENVLOCK_TRY(
      check(api.layout_create(&gemm.m_b, k_r_16bf, k, n, ld(k)), "cublasLtMatrixLayoutCreate"));
  ENVLOCK_TRY(
      check(api.layout_create(&gemm.m_d, output == Output::fp32 ? k_r_32f : k_r_16bf, m, n, ld(m)),
            "cublasLtMatrixLayoutCreate"));
  Preference preference = nullptr;
  ENVLOCK_TRY(check(api.pref_create(&preference), "cublasLtMatmulPreferenceCreate"));
  const std::uint64_t workspace = workspace_bytes;
  Status set =
      check(api.pref_set_attribute(preference, k_pref_max_workspace, &workspace, sizeof workspace),
            "cublasLtMatmulPreferenceSetAttribute");
  if (set && reduction == Reduction::none) {
    const std::uint32_t none = 0; // CUBLASLT_REDUCTION_SCHEME_NONE alone
    set = check(api.pref_set_attribute(preference, k_pref_reduction_mask, &none, sizeof none),
                "cublasLtMatmulPreferenceSetAttribute");
  }
  HeuristicResult result{};
  int found = 0;
  if (set) {
    set = check(api.heuristic(gemm.m_handle, gemm.m_desc, gemm.m_a, gemm.m_b, gemm.m_d, gemm.m_d,
                              preference, 1, &result, &found),
                "cublasLtMatmulAlgoGetHeuristic");
  }
  ENVLOCK_TRY(check(api.pref_destroy(preference), "cublasLtMatmulPreferenceDestroy"));
  ENVLOCK_TRY(set);
  if (found < 1 || result.state != 0) {
    return env_error("no cuBLASLt algorithm for a " + std::to_string(m) + "x" + std::to_string(n) +
                     "x" + std::to_string(k) + " BF16 product");
  }
  gemm.m_algo = result.algo;
  gemm.m_workspace = workspace_bytes;
  return gemm;
}

Gemm::Gemm(Gemm&& other) noexcept
    : m_api(std::exchange(other.m_api, nullptr)), m_handle(std::exchange(other.m_handle, nullptr)),
      m_desc(std::exchange(other.m_desc, nullptr)), m_a(std::exchange(other.m_a, nullptr)),
      m_b(std::exchange(other.m_b, nullptr)), m_d(std::exchange(other.m_d, nullptr)),
      m_algo(other.m_algo), m_workspace(other.m_workspace) {}

Gemm::~Gemm() {
  if (m_api == nullptr) {
    return;
  }
  for (Layout layout : {m_a, m_b, m_d}) {
    if (layout != nullptr) {
      static_cast<void>(m_api->layout_destroy(layout));
    }
  }
  if (m_desc != nullptr) {
    static_cast<void>(m_api->desc_destroy(m_desc));
  }
}

Status Gemm::run(const void* a, const void* b, void* d, void* workspace,
                 cuda::CuStream stream) const {
  const float alpha = 1.0F;
  const float beta = 0.0F;
  return check(m_api->matmul(m_handle, m_desc, &alpha, a, m_a, b, m_b, &beta, d, m_d, d, m_d,
                             &m_algo, workspace, m_workspace, stream),
               "cublasLtMatmul");
}

Result<AlgoConfig> Gemm::config() const {
  AlgoConfig config;
  const auto get = [&](int attribute, auto& value) -> Status {
    std::size_t written = 0;
    return check(m_api->algo_config_get(&m_algo, attribute, &value, sizeof value, &written),
                 "cublasLtMatmulAlgoConfigGetAttribute");
  };
  ENVLOCK_TRY(get(k_config_id, config.id));
  ENVLOCK_TRY(get(k_config_tile, config.tile));
  ENVLOCK_TRY(get(k_config_splitk, config.splitk));
  ENVLOCK_TRY(get(k_config_reduction, config.reduction));
  ENVLOCK_TRY(get(k_config_swizzle, config.swizzle));
  ENVLOCK_TRY(get(k_config_custom, config.custom));
  ENVLOCK_TRY(get(k_config_stages, config.stages));
  return config;
}

} // namespace envlock::verify::blaslt
