#include "diff/core_packages.hpp"

#include <array>
#include <cctype>
#include <utility>

namespace envlock::diff {

namespace {

// True for "" or "-cuNN" / "-cuNN" suffixes of the CUDA library wheels (nvidia-nccl-cu12).
bool is_cuda_suffix(std::string_view rest) {
  if (rest.empty()) {
    return true;
  }
  if (rest.substr(0, 3) != "-cu" || rest.size() == 3) {
    return false;
  }
  for (const char c : rest.substr(3)) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) {
      return false;
    }
  }
  return true;
}

} // namespace

std::optional<std::string> core_dependency_of(std::string_view name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> k_exact = {{
      {"torch", "PyTorch"},
      {"torchvision", "torchvision"},
      {"torchaudio", "torchaudio"},
      {"triton", "Triton"},
      {"pytorch-triton", "Triton"},
  }};
  for (const auto& [pkg, what] : k_exact) {
    if (name == pkg) {
      return std::string(what);
    }
  }
  // nvidia-cuda-* names a CUDA toolkit component (runtime, nvrtc, cupti, nvcc, ...).
  if (name.substr(0, 12) == "nvidia-cuda-") {
    return "CUDA (" + std::string(name) + ")";
  }
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 13> k_families = {{
      {"nvidia-nccl", "NCCL"},
      {"nvidia-cudnn", "cuDNN"},
      {"nvidia-cublas", "cuBLAS"},
      {"nvidia-cufft", "cuFFT"},
      {"nvidia-curand", "cuRAND"},
      {"nvidia-cusolver", "cuSOLVER"},
      {"nvidia-cusparse", "cuSPARSE"},
      {"nvidia-cusparselt", "cuSPARSELt"},
      {"nvidia-nvjitlink", "nvJitLink"},
      {"nvidia-nvtx", "NVTX"},
      {"nvidia-cufile", "cuFile"},
      {"nvidia-nvshmem", "NVSHMEM"},
      {"nvidia-cuda", "CUDA"},
  }};
  for (const auto& [family, what] : k_families) {
    if (name.substr(0, family.size()) == family && is_cuda_suffix(name.substr(family.size()))) {
      return std::string(what);
    }
  }
  return std::nullopt;
}

} // namespace envlock::diff
