#include "diff/core_packages.hpp"

#include <doctest/doctest.h>

using envlock::diff::core_dependency_of;

TEST_SUITE("report.core_packages") {
  TEST_CASE("names the part of the base image a package replaces") {
    CHECK(core_dependency_of("torch").value() == "PyTorch");
    CHECK(core_dependency_of("triton").value() == "Triton");
    CHECK(core_dependency_of("nvidia-nccl-cu12").value() == "NCCL");
    CHECK(core_dependency_of("nvidia-nccl").value() == "NCCL");
    CHECK(core_dependency_of("nvidia-cudnn-cu13").value() == "cuDNN");
    CHECK(core_dependency_of("nvidia-cublas-cu12").value() == "cuBLAS");
    CHECK(core_dependency_of("nvidia-cuda-runtime-cu12").value() ==
          "CUDA (nvidia-cuda-runtime-cu12)");
  }

  TEST_CASE("leaves look-alikes alone") {
    CHECK_FALSE(core_dependency_of("nvidia-cudnn-frontend").has_value());
    CHECK_FALSE(core_dependency_of("nvidia-ml-py").has_value());
    CHECK_FALSE(core_dependency_of("torchx").has_value());
    CHECK_FALSE(core_dependency_of("nccl4py").has_value());
    CHECK_FALSE(core_dependency_of("nvidia-cutlass-dsl").has_value());
    CHECK_FALSE(core_dependency_of("nvidia-nccl-cuda").has_value());
  }
}
