// run_gpu_checks without a GPU (CI): the no-driver path, --no-gpu, the busbw judgement, the sweep
// sizes, the library search order and the embedded kernels.
#include "../testutil.hpp"
#include "verify/gpu/allreduce.hpp"
#include "verify/gpu/gpu_checks.hpp"
#include "verify/gpu/kernels.hpp"
#include "verify/gpu/libraries.hpp"

#include <dlfcn.h>
#include <doctest/doctest.h>

namespace envlock::verify {

namespace {

bool driver_present() {
  void* handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle != nullptr) {
    ::dlclose(handle);
    return true;
  }
  return false;
}

const CheckResult* find(const std::vector<CheckResult>& checks, const std::string& id) {
  for (const auto& check : checks) {
    if (check.id == id) {
      return &check;
    }
  }
  return nullptr;
}

} // namespace

TEST_SUITE("verify_gpu") {

  TEST_CASE("without a driver every GPU check fails with the reason") {
    if (driver_present()) {
      MESSAGE("libcuda.so.1 is present here: the no-driver path is not testable on this machine");
      return;
    }
    lock::Lock expects_gpus;
    expects_gpus.expect.gpus.count = 8;
    const auto checks = run_gpu_checks(expects_gpus, GpuOptions{});
    REQUIRE(checks.size() == 7);
    for (const char* id : {"gpu.count", "gpu.model", "links.peer", "links.host_to_device",
                           "links.device_to_host", "nccl.allreduce", "nccl.busbw"}) {
      const CheckResult* check = find(checks, id);
      REQUIRE(check != nullptr);
      CHECK(check->outcome == Outcome::fail);
      CHECK(check->reason == "no NVIDIA driver: libcuda.so.1 not found");
    }
  }

  TEST_CASE("without a driver, a lock that expects no GPU skips the GPU checks") {
    if (driver_present()) {
      MESSAGE("libcuda.so.1 is present here: the no-driver path is not testable on this machine");
      return;
    }
    const auto checks = run_gpu_checks(lock::Lock{}, GpuOptions{});
    REQUIRE(checks.size() == 7);
    for (const auto& check : checks) {
      CHECK(check.outcome == Outcome::skip);
      CHECK(check.reason == "no NVIDIA driver: libcuda.so.1 not found; the lock expects no GPU "
                            "(expect.gpus is empty)");
    }
    lock::Lock model_only;
    model_only.expect.gpus.model = "NVIDIA H200";
    CHECK(run_gpu_checks(model_only, GpuOptions{})[0].outcome == Outcome::fail);
  }

  TEST_CASE("--no-gpu skips every GPU check with the reason") {
    GpuOptions options;
    options.no_gpu = true;
    const auto checks = run_gpu_checks(lock::Lock{}, options);
    REQUIRE(checks.size() == 7);
    for (const auto& check : checks) {
      CHECK(check.outcome == Outcome::skip);
      CHECK(check.reason == "GPU checks skipped (--no-gpu)");
    }
  }

  TEST_CASE("the sweep runs from 1 MiB to 1 GiB in steps of 4") {
    const auto sizes = sweep_sizes(1 << 20, std::uint64_t{1} << 30);
    REQUIRE(sizes.size() == 6);
    CHECK(sizes.front() == 1 << 20);
    CHECK(sizes[1] == 4 << 20);
    CHECK(sizes.back() == std::uint64_t{1} << 30);
    CHECK(sweep_sizes(1 << 20, 3 << 20) == std::vector<std::uint64_t>{1 << 20, 3 << 20});
    CHECK(sweep_sizes(0, 1).empty());
    CHECK(size_label(std::uint64_t{1} << 30) == "1GiB");
    CHECK(size_label(256 << 20) == "256MiB");
    CHECK(size_label(512 << 10) == "512KiB");
    CHECK(size_label(100) == "100B");
  }

  TEST_CASE("busbw is judged against the lock's minimum for the GPU model") {
    lock::Expect expect;
    expect.nccl_busbw_gbps["NVIDIA H200"] = 300.0;
    CheckResult check;
    judge_busbw(expect, "NVIDIA H200", 2, std::uint64_t{1} << 30, 331.7, check);
    CHECK(check.outcome == Outcome::pass);
    CHECK(check.expected == ">= 300.0 GB/s at 1GiB");
    CHECK(check.found == "331.7 GB/s at 1GiB");

    CheckResult slow;
    judge_busbw(expect, "NVIDIA H200", 8, std::uint64_t{1} << 30, 120.0, slow);
    CHECK(slow.outcome == Outcome::fail);
    CHECK(slow.reason ==
          "bus bandwidth 120.0 GB/s is below the lock's minimum 300.0 GB/s for NVIDIA H200");

    CheckResult other_model;
    judge_busbw(expect, "NVIDIA B200", 8, std::uint64_t{1} << 30, 120.0, other_model);
    CHECK(other_model.outcome == Outcome::pass);
    CHECK(other_model.expected.empty());

    CheckResult one;
    judge_busbw(expect, "NVIDIA H200", 1, std::uint64_t{1} << 30, 0.0, one);
    CHECK(one.outcome == Outcome::skip);
    CHECK(one.reason == "one GPU: no communication");
  }

  TEST_CASE("PyTorch's wheel libraries come before the dynamic linker's") {
    util::TempDir dir = test::temp_dir();
    const auto site = dir.path() / "lib" / "python3.12" / "site-packages";
    test::write_text(site / "nvidia" / "nccl" / "lib" / "libnccl.so.2", "");
    test::write_text(site / "nvidia" / "cu13" / "lib" / "libcublasLt.so.13", "");
    test::write_text(site / "torch" / "lib" / "libtorch.so", "");
    const auto dirs = python_library_dirs({site});
    REQUIRE(dirs.size() == 3);
    CHECK(dirs[0] == site / "nvidia" / "cu13" / "lib");
    CHECK(dirs[1] == site / "nvidia" / "nccl" / "lib");
    CHECK(dirs[2] == site / "torch" / "lib");
    CHECK(library_candidates(dirs, {"libnccl.so.2"}) ==
          std::vector<std::string>{(site / "nvidia" / "nccl" / "lib" / "libnccl.so.2").string(),
                                   "libnccl.so.2"});
    CHECK(library_candidates({}, {"libcublasLt.so.13", "libcublasLt.so"}) ==
          std::vector<std::string>{"libcublasLt.so.13", "libcublasLt.so"});
  }

  TEST_CASE("the smoke kernels are embedded when nvcc was found") {
#ifdef ENVLOCK_HAVE_KERNELS
    CHECK(kernels_built_in());
#else
    CHECK_FALSE(kernels_built_in());
#endif
  }

} // TEST_SUITE

} // namespace envlock::verify
