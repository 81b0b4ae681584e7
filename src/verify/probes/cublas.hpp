// Which cuBLAS the checked system has, read from files only: CUDA's version.json ("libcublas"),
// else the versioned file name of libcublas.so in the library folders or beside PyTorch
// (nvidia/cublas/lib, the pip wheel's). The SBOM lists it; no check compares it to the lock.
#pragma once

#include "verify/run_context.hpp"

#include <optional>
#include <string>

namespace envlock::verify {

struct LibraryFound {
  std::string version; // "13.0.0.19"
  std::string source;  // what it was read from: "/usr/local/cuda/version.json (libcublas)"
};

// Nothing when no cuBLAS is found.
std::optional<LibraryFound> find_cublas(const RunContext& context);

} // namespace envlock::verify
