// run_gpu_checks: loads the driver, lists the devices, runs each device's checks on a thread of
// its own, then the NCCL all-reduce over all of them.
#include "verify/gpu/gpu_checks.hpp"

#include "verify/gpu/allreduce.hpp"
#include "verify/gpu/cublaslt.hpp"
#include "verify/gpu/cuda_driver.hpp"
#include "verify/gpu/device.hpp"
#include "verify/gpu/libraries.hpp"
#include "verify/gpu/nccl_api.hpp"
#include "verify/gpu/timer.hpp"

#include <array>
#include <set>
#include <thread>

namespace envlock::verify {

namespace {

// The run-wide GPU checks: group, id, title.
const std::vector<std::array<const char*, 3>> k_run_checks = {
    {"gpu", "gpu.count", "GPU count"},
    {"gpu", "gpu.model", "GPU model"},
    {"allreduce", "nccl.allreduce", "NCCL all-reduce known answer"},
    {"allreduce", "nccl.busbw", "NCCL all-reduce bus bandwidth"}};

// The run-wide check `id` of the table above, not yet run.
CheckResult new_run_check(std::string_view id) {
  for (const auto& [group, row_id, title] : k_run_checks) {
    if (id == row_id) {
      return new_check(group, row_id, title);
    }
  }
  return new_check("gpu", std::string(id), std::string(id));
}

// Every GPU check with the same outcome and reason (no driver, --no-gpu).
std::vector<CheckResult> all_checks(Outcome outcome, const std::string& reason) {
  std::vector<CheckResult> checks;
  for (const auto& [group, id, title] : k_run_checks) {
    CheckResult check = new_check(group, id, title);
    check.outcome = outcome;
    check.reason = reason;
    checks.push_back(std::move(check));
  }
  return checks;
}

CheckResult count_check(const lock::Lock& lock, const cuda::Driver& driver, int driver_version,
                        const std::vector<DeviceInfo>& devices) {
  CheckResult check = new_run_check("gpu.count");
  check.found = std::to_string(devices.size());
  check.outcome = Outcome::pass;
  if (lock.expect.gpus.count > 0) {
    check.expected = std::to_string(lock.expect.gpus.count);
    if (static_cast<std::int64_t>(devices.size()) != lock.expect.gpus.count) {
      check.outcome = Outcome::fail;
      check.reason = "the lock expects " + check.expected + " GPUs, " + check.found + " visible";
    }
  }
  nlohmann::json uuids = nlohmann::json::array();
  nlohmann::json gpus = nlohmann::json::array();
  for (const auto& device : devices) {
    uuids.push_back(device.uuid);
    gpus.push_back({{"index", device.ordinal},
                    {"uuid", device.uuid},
                    {"name", device.name},
                    {"sm_count", device.sm_count},
                    {"compute_capability",
                     std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor)},
                    {"memory_bytes", device.memory_bytes}});
  }
  check.details["uuids"] = uuids;
  check.details["gpus"] = gpus;
  check.details["driver_library"] = driver.path;
  check.details["driver_api_version"] = cuda::version_string(driver_version);
  return check;
}

CheckResult model_check(const lock::Lock& lock, const std::vector<DeviceInfo>& devices) {
  CheckResult check = new_run_check("gpu.model");
  std::set<std::string> names;
  for (const auto& device : devices) {
    names.insert(device.name);
  }
  for (const auto& name : names) {
    check.found += (check.found.empty() ? "" : ", ") + name;
  }
  check.expected = lock.expect.gpus.model;
  check.outcome = Outcome::pass;
  if (devices.empty()) {
    check.outcome = Outcome::fail;
    check.reason = "no GPU visible";
  } else if (!check.expected.empty() && (names.size() != 1 || *names.begin() != check.expected)) {
    check.outcome = Outcome::fail;
    check.reason = "the lock expects " + check.expected + ", found " + check.found;
  }
  return check;
}

} // namespace

std::vector<CheckResult> run_gpu_checks(const lock::Lock& lock, const GpuOptions& options) {
  if (options.no_gpu) {
    return all_checks(Outcome::skip, "GPU checks skipped (--no-gpu)");
  }
  Stopwatch watch;
  auto driver = cuda::load_driver();
  if (!driver) {
    // A node without a driver is what a lock that expects no GPU describes (a CPU node).
    if (lock.expect.gpus.count == 0 && lock.expect.gpus.model.empty()) {
      return all_checks(Outcome::skip, driver.error().message +
                                           "; the lock expects no GPU (expect.gpus is empty)");
    }
    return all_checks(Outcome::fail, driver.error().message);
  }
  const cuda::Api& api = driver->api;
  int driver_version = 0;
  Status ready = cuda::check(api, api.init(0), "cuInit");
  if (ready) {
    ready = cuda::check(api, api.driver_get_version(&driver_version), "cuDriverGetVersion");
  }
  if (!ready) {
    return all_checks(Outcome::fail, ready.error().message);
  }
  auto devices = list_devices(api, options.devices);
  if (!devices) {
    return all_checks(Outcome::fail, devices.error().message);
  }
  std::vector<CheckResult> checks = {count_check(lock, *driver, driver_version, *devices),
                                     model_check(lock, *devices)};
  checks[0].seconds = watch.lap();
  checks[1].seconds = checks[0].seconds; // one lap found both
  if (devices->empty() || !(options.smoke || options.gemm || options.allreduce)) {
    return checks;
  }

  const auto library_dirs = python_library_dirs(options.site_packages);
  Result<blaslt::Library> blas = env_error("not loaded: no GEMM asked for");
  if (options.gemm) {
    blas = blaslt::load(library_candidates(
        library_dirs, {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"}));
  }
  const std::string blas_error = blas ? "" : "cuBLASLt: " + blas.error().message;

  const DeviceSizes sizes = device_sizes(options);
  const DeviceWork work{options.smoke, options.gemm};
  if (options.smoke || options.gemm) {
    std::vector<std::vector<CheckResult>> per_device(devices->size());
    {
      std::vector<std::jthread> threads;
      for (std::size_t i = 0; i < devices->size(); ++i) {
        threads.emplace_back([&, i]() {
          per_device[i] =
              device_checks(api, (*devices)[i], blas ? &*blas : nullptr, blas_error, sizes, work);
        });
      }
    }
    for (auto& results : per_device) {
      checks.insert(checks.end(), results.begin(), results.end());
    }
  }
  if (options.allreduce) {
    auto nccl = nccl::load(library_candidates(library_dirs, {"libnccl.so.2"}));
    const std::string nccl_error = nccl ? "" : "NCCL: " + nccl.error().message;
    auto nccl_checks =
        allreduce_checks(api, lock, *devices, nccl ? &*nccl : nullptr, nccl_error, options);
    checks.insert(checks.end(), nccl_checks.begin(), nccl_checks.end());
  }
  return checks;
}

} // namespace envlock::verify
