// The packages that an NGC PyTorch base image already ships as one tested combination (PyTorch,
// Triton, CUDA libraries, cuDNN, NCCL). A lock that installs one of them over the image replaces
// part of that combination, which the diff flags.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace envlock::diff {

// What the package replaces in the base image ("PyTorch", "NCCL", "CUDA runtime library", ...),
// or nothing when `name` (a normalised Python package name) is not a core dependency.
std::optional<std::string> core_dependency_of(std::string_view name);

} // namespace envlock::diff
