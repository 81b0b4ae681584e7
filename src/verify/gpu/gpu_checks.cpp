// run_gpu_checks: loads the driver and starts the set-up, lists the devices, runs each device's
// checks on a thread of its own, opens the measurements once the set-up and the host checks are
// done, then the links and the NCCL all-reduce over all of them.
#include "verify/gpu/gpu_checks.hpp"

#include "verify/gpu/allreduce.hpp"
#include "verify/gpu/cublaslt.hpp"
#include "verify/gpu/cuda_driver.hpp"
#include "verify/gpu/device.hpp"
#include "verify/gpu/libraries.hpp"
#include "verify/gpu/links.hpp"
#include "verify/gpu/nccl_api.hpp"
#include "verify/gpu/sdc_node.hpp"
#include "verify/gpu/setup.hpp"
#include "verify/gpu/timer.hpp"

#include <array>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

namespace envlock::verify {

namespace {

// The run-wide checks of `group` with the same outcome and reason.
void add_group(std::vector<CheckResult>& checks, std::string_view group, Outcome outcome,
               const std::string& reason) {
  for (const auto& [row_group, id, title] : run_check_rows()) {
    if (group == row_group) {
      CheckResult check = new_check(row_group, id, title);
      check.outcome = outcome;
      check.reason = reason;
      checks.push_back(std::move(check));
    }
  }
}

// Every GPU check with the same outcome and reason (no driver, --no-gpu); "sdc.node" too when
// the SDC check was asked for.
std::vector<CheckResult> all_checks(Outcome outcome, const std::string& reason, bool sdc) {
  std::vector<CheckResult> checks;
  for (const char* group : {"gpu", "links", "allreduce"}) {
    add_group(checks, group, outcome, reason);
  }
  if (sdc) {
    CheckResult node = compare_node_sdc({});
    node.outcome = outcome;
    node.reason = reason;
    checks.push_back(std::move(node));
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

// Each device's own checks, one thread per device; the measurements wait until `measure` is
// ready. Every device's primary context stays retained in `held`.
std::vector<CheckResult> per_device_checks(const cuda::Api& api,
                                           const std::vector<DeviceInfo>& devices,
                                           std::vector<std::optional<cuda::PrimaryContext>>& held,
                                           GpuSetup* setup, const std::shared_future<void>& measure,
                                           const GpuOptions& options,
                                           const std::function<void()>& open_measurements) {
  const DeviceSizes sizes = device_sizes(options);
  const DeviceWork work{options.smoke, options.gemm, !options.quick, options.sdc.run,
                        options.quick};
  std::vector<std::vector<CheckResult>> per_device(devices.size());
  {
    std::vector<std::jthread> threads;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      threads.emplace_back([&, i]() {
        per_device[i] = device_checks(api, devices[i], held[i],
                                      DeviceRun{setup, i, measure, &options.sdc}, sizes, work);
      });
    }
    open_measurements();
  }
  std::vector<CheckResult> checks;
  for (auto& results : per_device) {
    checks.insert(checks.end(), results.begin(), results.end());
  }
  return checks;
}

// Calls `loaded` when the run ends, for the paths on which the set-up never did.
class LibrariesLoadedAtExit {
public:
  explicit LibrariesLoadedAtExit(std::function<void()> loaded) : m_loaded(std::move(loaded)) {}
  LibrariesLoadedAtExit(const LibrariesLoadedAtExit&) = delete;
  LibrariesLoadedAtExit& operator=(const LibrariesLoadedAtExit&) = delete;
  LibrariesLoadedAtExit(LibrariesLoadedAtExit&&) = delete;
  LibrariesLoadedAtExit& operator=(LibrariesLoadedAtExit&&) = delete;
  ~LibrariesLoadedAtExit() { m_loaded(); }

private:
  std::function<void()> m_loaded;
};

} // namespace

std::string quick_skip_reason(const std::string& group) {
  return "not run under --quick; --check " + group + " runs it";
}

std::vector<CheckResult> run_gpu_checks(const lock::Lock& lock, const GpuOptions& options) {
  // libraries_loaded, called once: by the set-up when it has loaded its libraries, else here.
  auto loaded_once = std::make_shared<std::once_flag>();
  const std::function<void()> loaded = [loaded_once, &options]() {
    std::call_once(*loaded_once, [&]() {
      if (options.libraries_loaded) {
        options.libraries_loaded();
      }
    });
  };
  const LibrariesLoadedAtExit at_exit(loaded);
  if (options.no_gpu) {
    return all_checks(Outcome::skip, "GPU checks skipped (--no-gpu)", options.sdc.run);
  }
  Stopwatch watch;
  auto driver = cuda::load_driver();
  if (!driver) {
    // A node without a driver is what a lock that expects no GPU describes (a CPU node).
    if (lock.expect.gpus.count == 0 && lock.expect.gpus.model.empty()) {
      return all_checks(Outcome::skip,
                        driver.error().message + "; the lock expects no GPU (expect.gpus is empty)",
                        options.sdc.run);
    }
    return all_checks(Outcome::fail, driver.error().message, options.sdc.run);
  }
  const cuda::Api& api = driver->api;
  // The set-up starts now: the libraries load while the driver starts. It retains the contexts
  // its handles need, so it may outlive the run's own (`held` below).
  std::optional<GpuSetup> setup;
  const bool any_work = options.smoke || options.gemm || options.links == Planned::run ||
                        options.allreduce == Planned::run || options.sdc.run;
  const bool blas = options.gemm || options.sdc.run;
  if (blas || options.allreduce == Planned::run) {
    setup.emplace(api, python_library_dirs(options.site_packages), blas,
                  options.allreduce == Planned::run, loaded);
  } else {
    loaded();
  }
  int driver_version = 0;
  Status ready = cuda::check(api, api.init(0), "cuInit");
  if (ready) {
    ready = cuda::check(api, api.driver_get_version(&driver_version), "cuDriverGetVersion");
  }
  if (!ready) {
    return all_checks(Outcome::fail, ready.error().message, options.sdc.run);
  }
  auto devices = list_devices(api, options.devices);
  if (!devices) {
    return all_checks(Outcome::fail, devices.error().message, options.sdc.run);
  }
  std::vector<CheckResult> checks = {count_check(lock, *driver, driver_version, *devices),
                                     model_check(lock, *devices)};
  checks[0].seconds = watch.lap();
  checks[1].seconds = checks[0].seconds; // one lap found both
  if (devices->empty() || !any_work) {
    return checks;
  }
  if (setup) {
    setup->set_devices(*devices);
  }

  // Each device's context, retained by its thread and kept until the end of the run.
  std::vector<std::optional<cuda::PrimaryContext>> held(devices->size());
  std::promise<void> measure;
  const auto open_measurements = [&]() {
    if (setup) {
      setup->wait();
    }
    if (options.measure_after.valid()) {
      options.measure_after.wait();
    }
    measure.set_value();
  };
  GpuOptions with_driver = options;
  with_driver.sdc.driver_api_version = cuda::version_string(driver_version);
  const auto own = per_device_checks(api, *devices, held, setup ? &*setup : nullptr,
                                     measure.get_future().share(), with_driver, open_measurements);
  checks.insert(checks.end(), own.begin(), own.end());
  if (options.sdc.run) {
    Stopwatch compare;
    checks.push_back(compare_node_sdc(own));
    checks.back().seconds = compare.lap();
  }

  if (options.links == Planned::run) {
    const auto links = link_checks(api, lock, *devices, LinkSizes{});
    checks.insert(checks.end(), links.begin(), links.end());
  } else if (options.links == Planned::skip_quick) {
    add_group(checks, "links", Outcome::skip, quick_skip_reason("links"));
  }
  if (options.allreduce == Planned::run) {
    auto nccl_checks = allreduce_checks(api, lock, *devices, setup->nccl(), options);
    checks.insert(checks.end(), nccl_checks.begin(), nccl_checks.end());
  } else if (options.allreduce == Planned::skip_quick) {
    add_group(checks, "allreduce", Outcome::skip, quick_skip_reason("allreduce"));
  }
  return checks;
}

} // namespace envlock::verify
