#include "verify/gpu/device.hpp"

#include "verify/gpu/cuda_raii.hpp"
#include "verify/gpu/figures.hpp"
#include "verify/gpu/gemm.hpp"
#include "verify/gpu/kernels.hpp"
#include "verify/gpu/sdc.hpp"
#include "verify/gpu/setup.hpp"
#include "verify/gpu/timer.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

namespace envlock::verify {

namespace {

constexpr int k_copy_warmup = 3;
constexpr int k_copy_iterations = 20;

std::string prefix(const DeviceInfo& device) {
  return "gpu." + std::to_string(device.ordinal) + ".";
}

CheckResult failed_by(CheckResult check, const Error& error) {
  check.outcome = Outcome::fail;
  check.reason = error.message;
  return check;
}

Status run_known_answer(const cuda::Api& api, const SmokeKernels& kernels, std::size_t elements,
                        CheckResult& check) {
  ENVLOCK_TRY_ASSIGN(auto out, cuda::DeviceBuffer::allocate(api, elements * sizeof(std::uint32_t)));
  auto count = static_cast<std::uint32_t>(elements);
  cuda::CuDevicePtr ptr = out.ptr();
  const auto grid = static_cast<unsigned>((elements + k_block_threads - 1) / k_block_threads);
  ENVLOCK_TRY(launch(api, kernels.known_answer, grid, k_block_threads, nullptr, {&ptr, &count}));
  std::vector<std::uint32_t> found(elements);
  ENVLOCK_TRY(
      cuda::check(api, api.memcpy_dtoh(found.data(), out.ptr(), out.bytes()), "cuMemcpyDtoH"));
  const Mismatches wrong = known_answer_mismatches(found);
  check.expected = std::to_string(elements) + " known answers";
  check.found = std::to_string(elements - wrong.count) + " correct";
  if (wrong.count > 0) {
    check.outcome = Outcome::fail;
    check.reason = std::to_string(wrong.count) + " wrong answers, first at element " +
                   std::to_string(wrong.first);
    check.details["first_wrong"] = {
        {"index", wrong.first}, {"found", wrong.first_found}, {"expected", wrong.first_expected}};
  } else {
    check.outcome = Outcome::pass;
  }
  return {};
}

Status run_bandwidth(const cuda::Api& api, const SmokeKernels& kernels, std::size_t bytes,
                     CheckResult& check) {
  ENVLOCK_TRY_ASSIGN(auto src, cuda::DeviceBuffer::allocate(api, bytes));
  ENVLOCK_TRY_ASSIGN(auto dst, cuda::DeviceBuffer::allocate(api, bytes));
  ENVLOCK_TRY_ASSIGN(auto stream, cuda::Stream::create(api));
  // On the copies' stream: a non-blocking stream does not wait for the legacy stream's work.
  ENVLOCK_TRY(cuda::check(api,
                          api.memset_d32_async(src.ptr(), 0x3F800000U, bytes / 4, stream.get()),
                          "cuMemsetD32Async"));
  std::uint64_t vectors = bytes / 16;
  cuda::CuDevicePtr from = src.ptr();
  cuda::CuDevicePtr to = dst.ptr();
  const std::uint64_t per_block = std::uint64_t{4} * k_block_threads;
  const auto grid = static_cast<unsigned>((vectors + per_block - 1) / per_block);
  const auto copy = [&]() {
    return launch(api, kernels.copy, grid, k_block_threads, stream.get(), {&from, &to, &vectors});
  };
  ENVLOCK_TRY_ASSIGN(double seconds,
                     time_iterations(api, stream.get(), k_copy_warmup, k_copy_iterations, copy));
  std::array<std::uint32_t, 2> ends{};
  ENVLOCK_TRY(cuda::check(api, api.memcpy_dtoh(&ends[0], dst.ptr(), 4), "cuMemcpyDtoH"));
  ENVLOCK_TRY(
      cuda::check(api, api.memcpy_dtoh(&ends[1], dst.ptr() + bytes - 4, 4), "cuMemcpyDtoH"));
  const double tbps = gbps(2.0 * static_cast<double>(bytes), seconds) / 1000.0;
  check.figures.push_back({"copy_bandwidth", tbps, "TB/s"});
  check.details["bytes_per_copy"] = 2 * bytes;
  check.found = std::to_string(tbps).substr(0, 5) + " TB/s";
  if (ends[0] != 0x3F800000U || ends[1] != 0x3F800000U) {
    check.outcome = Outcome::fail;
    check.reason = "the copy kernel wrote wrong data";
  } else {
    check.outcome = Outcome::pass;
  }
  return {};
}

// The SDC chain with the device's cuBLASLt handle; its sustained rate beside the GEMM check's.
void run_device_sdc(const cuda::Api& api, const SmokeKernels& kernels, const DeviceInfo& device,
                    const DeviceRun& run, const DeviceWork& work, const CheckResult& gemm,
                    CheckResult& sdc, CheckResult& clocks) {
  const BlasSetup& blas = run.setup->blas();
  const auto& handle = blas.handles.at(run.index);
  Status status = !blas.library ? Status(blas.library.error())
                  : !handle     ? Status(handle.error())
                                : run_sdc(api, kernels, *blas.library, *handle, device, *run.sdc,
                                          work.quick, sdc, clocks);
  if (!status) {
    sdc = failed_by(sdc, status.error());
    clocks = failed_by(clocks, status.error());
    return;
  }
  const auto rate = std::find_if(gemm.figures.begin(), gemm.figures.end(),
                                 [](const Figure& f) { return f.name.starts_with("gemm_bf16_"); });
  if (rate != gemm.figures.end() && rate->value > 0 && !sdc.figures.empty()) {
    sdc.details["share_of_gemm_check"] = sdc.figures.front().value / rate->value;
  }
}

} // namespace

CheckResult new_check(std::string group, std::string id, std::string title) {
  CheckResult check;
  check.group = std::move(group);
  check.id = std::move(id);
  check.title = std::move(title);
  return check;
}

const std::vector<std::array<const char*, 3>>& run_check_rows() {
  static const std::vector<std::array<const char*, 3>> rows = {
      {"gpu", "gpu.count", "GPU count"},
      {"gpu", "gpu.model", "GPU model"},
      {"links", "links.peer", "GPU to GPU copy bandwidth"},
      {"links", "links.host_to_device", "host to GPU copy bandwidth"},
      {"links", "links.device_to_host", "GPU to host copy bandwidth"},
      {"allreduce", "nccl.allreduce", "NCCL all-reduce known answer"},
      {"allreduce", "nccl.busbw", "NCCL all-reduce bus bandwidth"}};
  return rows;
}

CheckResult new_run_check(std::string_view id) {
  for (const auto& [group, row_id, title] : run_check_rows()) {
    if (id == row_id) {
      return new_check(group, row_id, title);
    }
  }
  return new_check("gpu", std::string(id), std::string(id));
}

DeviceSizes device_sizes(const GpuOptions& options) {
  DeviceSizes sizes;
  if (options.quick) {
    sizes.copy_bytes = std::size_t{64} << 20;
  }
  return sizes;
}

std::vector<CheckResult> new_device_checks(const DeviceInfo& device) {
  const std::string gpu = "GPU " + std::to_string(device.ordinal);
  return {new_check("smoke", prefix(device) + "smoke", gpu + " known-answer kernel"),
          new_check("smoke", prefix(device) + "bandwidth", gpu + " memory bandwidth"),
          new_check("gemm", prefix(device) + "gemm_bf16", gpu + " BF16 GEMM (cuBLASLt)")};
}

std::vector<CheckResult> device_checks(const cuda::Api& api, const DeviceInfo& device,
                                       std::optional<cuda::PrimaryContext>& held,
                                       const DeviceRun& run, const DeviceSizes& sizes,
                                       const DeviceWork& work) {
  auto checks = new_device_checks(device);
  CheckResult smoke = std::move(checks[0]);
  CheckResult bandwidth = std::move(checks[1]);
  CheckResult gemm = std::move(checks[2]);
  auto sdc_checks = new_sdc_checks(device);
  CheckResult sdc = std::move(sdc_checks[0]);
  CheckResult clocks = std::move(sdc_checks[1]);
  const auto wanted = [&]() {
    std::vector<CheckResult> out;
    if (work.smoke) {
      out.push_back(std::move(smoke));
      out.push_back(std::move(bandwidth));
    }
    if (work.gemm) {
      out.push_back(std::move(gemm));
    }
    if (work.sdc) {
      out.push_back(std::move(sdc));
      out.push_back(std::move(clocks));
    }
    return out;
  };
  // Every wanted check with the same outcome and reason, the time so far on the first.
  const auto all_with = [&](Outcome outcome, const std::string& reason, double seconds) {
    for (CheckResult* check : {&smoke, &bandwidth, &gemm, &sdc, &clocks}) {
      check->outcome = outcome;
      check->reason = reason;
    }
    auto out = wanted();
    if (!out.empty()) {
      out.front().seconds = seconds;
    }
    return out;
  };
  Stopwatch watch;
  auto context = cuda::PrimaryContext::open(api, device.device);
  if (!context) {
    return all_with(Outcome::fail, context.error().message, watch.lap());
  }
  held.emplace(std::move(*context));
  if (!work.smoke && !work.gemm && !work.sdc) {
    return {}; // the context alone, retained for the run's later checks
  }
  auto kernels = load_smoke_kernels(api);
  if (!kernels) {
    return all_with(kernels_built_in() ? Outcome::fail : Outcome::skip, kernels.error().message,
                    watch.lap());
  }
  // The context and the kernels are the first check's: the smoke kernel's, else the GEMM's.
  if (work.smoke) {
    if (auto status = run_known_answer(api, *kernels, sizes.known_answer_elements, smoke);
        !status) {
      smoke = failed_by(smoke, status.error());
    }
    smoke.seconds = watch.lap();
  }
  std::optional<GemmProduct> product;
  if (work.gemm) {
    gemm.seconds = work.smoke ? 0 : watch.lap();
    const BlasSetup& blas = run.setup->blas(); // waits for cuBLASLt's set-up
    watch.lap();
    gemm.seconds += blas.handle_seconds.at(run.index);
    gemm.details["setup"] = {{"library_load_seconds", blas.load_seconds},
                             {"handle_seconds", blas.handle_seconds.at(run.index)}};
    const auto& handle = blas.handles.at(run.index);
    if (!blas.library) {
      gemm = failed_by(gemm, blas.library.error());
    } else if (!handle) {
      gemm = failed_by(gemm, handle.error());
    } else if (auto verified =
                   verify_gemm(api, *kernels, *blas.library, *handle, sizes, work.gemm_timed, gemm);
               !verified) {
      gemm = failed_by(gemm, verified.error());
    } else if (*verified) {
      product.emplace(std::move(**verified));
    }
    gemm.seconds += watch.lap();
  }

  // The measurements, once nothing is set up any more.
  run.measure.wait();
  watch.lap();
  if (work.smoke) {
    if (auto status = run_bandwidth(api, *kernels, sizes.copy_bytes, bandwidth); !status) {
      bandwidth = failed_by(bandwidth, status.error());
    }
    bandwidth.seconds = watch.lap();
  }
  if (product) {
    if (auto status = time_gemm(api, *product, gemm); !status) {
      gemm = failed_by(gemm, status.error());
    }
    gemm.seconds += watch.lap();
  }
  if (work.sdc) {
    run_device_sdc(api, *kernels, device, run, work, gemm, sdc, clocks);
    sdc.seconds = watch.lap();
  }
  return wanted();
}

Result<std::vector<DeviceInfo>> list_devices(const cuda::Api& api,
                                             const std::vector<int>& ordinals) {
  int count = 0;
  ENVLOCK_TRY(cuda::check(api, api.device_get_count(&count), "cuDeviceGetCount"));
  std::vector<int> wanted = ordinals;
  if (wanted.empty()) {
    for (int i = 0; i < count; ++i) {
      wanted.push_back(i);
    }
  }
  std::vector<DeviceInfo> devices;
  for (const int ordinal : wanted) {
    if (ordinal < 0 || ordinal >= count) {
      return input_error("no GPU " + std::to_string(ordinal) + ": " + std::to_string(count) +
                         " visible");
    }
    DeviceInfo info;
    info.ordinal = ordinal;
    ENVLOCK_TRY(cuda::check(api, api.device_get(&info.device, ordinal), "cuDeviceGet"));
    std::array<char, 256> name{};
    ENVLOCK_TRY(cuda::check(
        api, api.device_get_name(name.data(), static_cast<int>(name.size()), info.device),
        "cuDeviceGetName"));
    info.name = name.data();
    cuda::CuUuid uuid{};
    ENVLOCK_TRY(cuda::check(api, api.device_get_uuid(&uuid, info.device), "cuDeviceGetUuid"));
    info.uuid = cuda::uuid_string(uuid);
    ENVLOCK_TRY(cuda::check(api, api.device_total_mem(&info.memory_bytes, info.device),
                            "cuDeviceTotalMem"));
    for (auto [attribute, slot] : {std::pair{cuda::k_attribute_sm_count, &info.sm_count},
                                   std::pair{cuda::k_attribute_cc_major, &info.cc_major},
                                   std::pair{cuda::k_attribute_cc_minor, &info.cc_minor}}) {
      ENVLOCK_TRY(cuda::check(api, api.device_get_attribute(slot, attribute, info.device),
                              "cuDeviceGetAttribute"));
    }
    devices.push_back(std::move(info));
  }
  return devices;
}

} // namespace envlock::verify
