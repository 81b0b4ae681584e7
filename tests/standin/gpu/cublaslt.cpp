// The libcublasLt.so.13 stand-in (standin.hpp): a handle needs a current context (as the real
// library's does) and takes the scenario's time, logged with the GPU it was made for; BF16
// products of at most blas_max_n (FP32 accumulation, rounded to BF16 as the GPU does) are
// computed on the CPU, larger ones have no algorithm. Products with an FP32 output (the SDC
// check's chain) are FP32 throughout; ENVLOCK_STANDIN_SDC_FLIP=GPU:N flips the lowest bit of the
// first element of GPU's Nth FP32-output product, a silent data corruption.
#include "../../../src/verify/gpu/known_answer.hpp"
#include "standin.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

using envlock::standin::log;
using envlock::standin::scenario;

namespace {

using Status = int;
constexpr Status k_success = 0;
constexpr Status k_not_initialized = 1;
constexpr Status k_invalid_value = 7;

struct Handle {
  int gpu = 0;
};
struct Layout {
  std::uint64_t rows = 0;
  std::uint64_t cols = 0;
  int type = 0; // 0 CUDA_R_32F, 14 CUDA_R_16BF
};

// ENVLOCK_STANDIN_SDC_FLIP as GPU and product number; -1 when unset.
std::pair<int, long> sdc_flip() {
  const char* text = std::getenv("ENVLOCK_STANDIN_SDC_FLIP");
  int gpu = -1;
  long call = -1;
  if (text == nullptr || std::sscanf(text, "%d:%ld", &gpu, &call) != 2) {
    return {-1, -1};
  }
  return {gpu, call};
}

std::mutex g_fp32_mutex;
std::map<int, long> g_fp32_products; // per GPU
struct Desc {};
struct Preference {};
struct Algo {
  std::uint64_t data[8]; // NOLINT(modernize-avoid-c-arrays): the ABI's layout
};
struct HeuristicResult {
  Algo algo;
  std::size_t workspace_size;
  Status state;
  float waves_count;
  int reserved[4]; // NOLINT(modernize-avoid-c-arrays)
};

std::uint16_t to_bf16(float value) {
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t rounding = 0x7FFFU + ((bits >> 16U) & 1U); // to nearest, ties to even
  return static_cast<std::uint16_t>((bits + rounding) >> 16U);
}

} // namespace

extern "C" {

Status cublasLtCreate(Handle** handle) {
  const int gpu = envlock_standin_current_gpu();
  if (gpu < 0) {
    log("cublasLtCreate without a current context");
    return k_not_initialized;
  }
  log("cublasLtCreate begin gpu " + std::to_string(gpu));
  envlock::standin::sleep_ms(scenario().blas_create_ms);
  *handle = new Handle{gpu}; // NOLINT(cppcoreguidelines-owning-memory)
  log("cublasLtCreate end gpu " + std::to_string(gpu));
  return k_success;
}

Status cublasLtDestroy(Handle* handle) {
  delete handle; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

std::size_t cublasLtGetVersion() {
  log("cublasLtGetVersion");
  return 130100;
}

Status cublasLtMatmulDescCreate(Desc** desc, int /*compute*/, int /*scale*/) {
  *desc = new Desc{}; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

Status cublasLtMatmulDescDestroy(Desc* desc) {
  delete desc; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

Status cublasLtMatrixLayoutCreate(Layout** layout, int type, std::uint64_t rows, std::uint64_t cols,
                                  std::int64_t /*ld*/) {
  *layout = new Layout{rows, cols, type}; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

Status cublasLtMatrixLayoutDestroy(Layout* layout) {
  delete layout; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

Status cublasLtMatmulPreferenceCreate(Preference** preference) {
  *preference = new Preference{}; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

Status cublasLtMatmulPreferenceDestroy(Preference* preference) {
  delete preference; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

Status cublasLtMatmulPreferenceSetAttribute(Preference* /*p*/, int /*a*/, const void* /*v*/,
                                            std::size_t /*s*/) {
  return k_success;
}

Status cublasLtMatmulAlgoGetHeuristic(Handle* /*h*/, Desc* /*d*/, Layout* a, Layout* /*b*/,
                                      Layout* /*c*/, Layout* /*dl*/, Preference* /*p*/,
                                      int /*wanted*/, HeuristicResult* result, int* found) {
  *found = a->rows <= scenario().blas_max_n ? 1 : 0;
  if (*found == 1) {
    *result = HeuristicResult{};
  }
  return k_success;
}

Status cublasLtMatmulAlgoConfigGetAttribute(const Algo* /*algo*/, int attribute, void* buffer,
                                            std::size_t size, std::size_t* written) {
  // A fixed configuration: algorithm 21, no split-K.
  const std::int32_t value = attribute == 0 ? 21 : attribute == 2 ? 1 : 0;
  std::memcpy(buffer, &value, std::min(size, sizeof value));
  *written = sizeof value;
  return k_success;
}

Status cublasLtMatmul(Handle* handle, Desc* /*d*/, const void* /*alpha*/, const void* a_data,
                      Layout* a, const void* b_data, Layout* b, const void* /*beta*/,
                      const void* /*c*/, Layout* /*cl*/, void* d_data, Layout* d_layout,
                      const Algo* /*algo*/, void* /*workspace*/, std::size_t /*ws*/, void* stream) {
  if (a->rows > scenario().blas_max_n) {
    return k_invalid_value;
  }
  const std::uint64_t m = a->rows;
  const std::uint64_t k = a->cols;
  const std::uint64_t n = b->cols;
  const auto* a_bits = static_cast<const std::uint16_t*>(a_data);
  const auto* b_bits = static_cast<const std::uint16_t*>(b_data);
  auto* d_bits = static_cast<std::uint16_t*>(d_data);
  namespace known = envlock::verify::known;
  if (d_layout->type == 0) {
    auto* d_floats = static_cast<float*>(d_data);
    for (std::uint64_t j = 0; j < n; ++j) {
      for (std::uint64_t i = 0; i < m; ++i) {
        float sum = 0;
        for (std::uint64_t p = 0; p < k; ++p) {
          sum += known::bf16_to_float(a_bits[i + p * m]) * known::bf16_to_float(b_bits[p + j * k]);
        }
        d_floats[i + j * m] = sum;
      }
    }
    long product = 0;
    {
      const std::lock_guard<std::mutex> lock(g_fp32_mutex);
      product = ++g_fp32_products[handle->gpu];
    }
    if (const auto [gpu, call] = sdc_flip(); gpu == handle->gpu && call == product) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, d_floats, sizeof bits);
      bits ^= 1U << 13U; // a bit the fold's BF16 rounding keeps for values near 1
      std::memcpy(d_floats, &bits, sizeof bits);
      log("sdc flip gpu " + std::to_string(gpu) + " product " + std::to_string(product));
    }
    envlock_standin_advance(stream, 2.0 * static_cast<double>(m * n * k) / 1e15);
    return k_success;
  }
  for (std::uint64_t j = 0; j < n; ++j) {
    for (std::uint64_t i = 0; i < m; ++i) {
      float sum = 0;
      for (std::uint64_t p = 0; p < k; ++p) {
        sum += known::bf16_to_float(a_bits[i + p * m]) * known::bf16_to_float(b_bits[p + j * k]);
      }
      d_bits[i + j * m] = to_bf16(sum);
    }
  }
  envlock_standin_advance(stream, 2.0 * static_cast<double>(m * n * k) / 1e15);
  return k_success;
}

} // extern "C"
