// What each NVML call of the health facts costs: nvmlInit_v2 and nvmlShutdown, then every call
// `envlock node` makes for one GPU, each the median of N calls, slowest first, beside the sum.
// Finds which call makes the health reading slow on a real driver (the stand-in answers at once).
// Usage: bench_nvml_calls [RUNS] [LIBRARY]   (20, libnvidia-ml.so.1)
#include "node/nvml.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace {

using envlock::node::NvmlApi;
using envlock::node::NvmlDevice;

double median_ms(int runs, const std::function<void()>& call) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    call();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// Each call of the health facts, by its NVML name, for device `d`.
std::vector<std::pair<std::string, std::function<void()>>> calls(const NvmlApi& a, NvmlDevice d) {
  std::vector<std::pair<std::string, std::function<void()>>> list;
  const auto add = [&](const char* name, auto* fn, std::function<void()> call) {
    if (fn != nullptr) {
      list.emplace_back(name, std::move(call));
    }
  };
  add("nvmlDeviceGetPciInfo_v3", a.pci_info, [=] {
    envlock::node::NvmlPciInfo p{};
    (void)a.pci_info(d, &p);
  });
  add("nvmlDeviceGetEccMode", a.ecc_mode, [=] {
    int c = 0;
    int p = 0;
    (void)a.ecc_mode(d, &c, &p);
  });
  add("nvmlDeviceGetTotalEccErrors (x4)", a.total_ecc, [=] {
    unsigned long long n = 0;
    for (int type = 0; type < 2; ++type) {
      for (int counter = 0; counter < 2; ++counter) {
        (void)a.total_ecc(d, type, counter, &n);
      }
    }
  });
  add("nvmlDeviceGetRemappedRows", a.remapped_rows, [=] {
    unsigned c = 0;
    unsigned u = 0;
    unsigned p = 0;
    unsigned f = 0;
    (void)a.remapped_rows(d, &c, &u, &p, &f);
  });
  add("nvmlDeviceGetRetiredPages (x2)", a.retired_pages, [=] {
    for (int cause = 0; cause < 2; ++cause) {
      unsigned n = 0;
      (void)a.retired_pages(d, cause, &n, nullptr);
    }
  });
  add("nvmlDeviceGetRetiredPagesPendingStatus", a.retired_pending, [=] {
    int p = 0;
    (void)a.retired_pending(d, &p);
  });
  add("nvmlDeviceGetCurrentClocksEventReasons", a.clocks_event_reasons, [=] {
    unsigned long long r = 0;
    (void)a.clocks_event_reasons(d, &r);
  });
  add("nvmlDeviceGetTemperature", a.temperature, [=] {
    unsigned t = 0;
    (void)a.temperature(d, 0, &t);
  });
  add("nvmlDeviceGetTemperatureThreshold (x2)", a.temperature_threshold, [=] {
    unsigned t = 0;
    (void)a.temperature_threshold(d, 0, &t);
    (void)a.temperature_threshold(d, 1, &t);
  });
  add("nvmlDeviceGetPowerUsage", a.power_usage, [=] {
    unsigned p = 0;
    (void)a.power_usage(d, &p);
  });
  add("nvmlDeviceGetEnforcedPowerLimit", a.power_limit, [=] {
    unsigned p = 0;
    (void)a.power_limit(d, &p);
  });
  add("nvmlDeviceGetCurrPcieLinkGeneration", a.pcie_gen, [=] {
    unsigned v = 0;
    (void)a.pcie_gen(d, &v);
  });
  add("nvmlDeviceGetMaxPcieLinkGeneration", a.pcie_max_gen, [=] {
    unsigned v = 0;
    (void)a.pcie_max_gen(d, &v);
  });
  add("nvmlDeviceGetGpuMaxPcieLinkGeneration", a.pcie_gpu_max_gen, [=] {
    unsigned v = 0;
    (void)a.pcie_gpu_max_gen(d, &v);
  });
  add("nvmlDeviceGetCurrPcieLinkWidth", a.pcie_width, [=] {
    unsigned v = 0;
    (void)a.pcie_width(d, &v);
  });
  add("nvmlDeviceGetMaxPcieLinkWidth", a.pcie_max_width, [=] {
    unsigned v = 0;
    (void)a.pcie_max_width(d, &v);
  });
  add("nvmlDeviceGetPcieReplayCounter", a.pcie_replays, [=] {
    unsigned v = 0;
    (void)a.pcie_replays(d, &v);
  });
  add("nvmlDeviceGetNvLinkState (links 0-17)", a.nvlink_state, [=] {
    for (unsigned link = 0; link < 18; ++link) {
      int s = 0;
      (void)a.nvlink_state(d, link, &s);
    }
  });
  add("nvmlDeviceGetGpuFabricInfoV", a.fabric_info_v, [=] {
    envlock::node::NvmlFabricInfoV3 f{};
    f.version = envlock::node::k_nvml_fabric_info_v3;
    (void)a.fabric_info_v(d, &f);
  });
  add("nvmlDeviceGetPersistenceMode", a.persistence, [=] {
    int v = 0;
    (void)a.persistence(d, &v);
  });
  add("nvmlDeviceGetMigMode", a.mig_mode, [=] {
    unsigned c = 0;
    unsigned p = 0;
    (void)a.mig_mode(d, &c, &p);
  });
  add("nvmlDeviceGetComputeMode", a.compute_mode, [=] {
    int v = 0;
    (void)a.compute_mode(d, &v);
  });
  add("nvmlDeviceGetComputeRunningProcesses_v3", a.compute_processes, [=] {
    unsigned n = 0;
    (void)a.compute_processes(d, &n, nullptr);
  });
  add("nvmlDeviceGetGraphicsRunningProcesses_v3", a.graphics_processes, [=] {
    unsigned n = 0;
    (void)a.graphics_processes(d, &n, nullptr);
  });
  add("nvmlDeviceValidateInforom", a.validate_inforom, [=] { (void)a.validate_inforom(d); });
  return list;
}

} // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  const std::string library = argc > 2 ? argv[2] : "libnvidia-ml.so.1";
  const auto start = std::chrono::steady_clock::now();
  auto session = envlock::node::NvmlSession::open({library});
  const double open_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!session) {
    std::printf("NVML: %s\n", session.error().message.c_str());
    return 3;
  }
  const NvmlApi& api = session->api();
  NvmlDevice device = nullptr;
  if (api.handle(0, &device) != envlock::node::k_nvml_success) {
    std::printf("NVML: no GPU 0\n");
    return 3;
  }
  std::printf("dlopen + nvmlInit_v2 (once): %.3f ms\n", open_ms);
  std::vector<std::pair<double, std::string>> timed;
  double sum = 0;
  for (const auto& [name, call] : calls(api, device)) {
    const double ms = median_ms(runs, call);
    timed.emplace_back(ms, name);
    sum += ms;
  }
  std::sort(timed.rbegin(), timed.rend());
  for (const auto& [ms, name] : timed) {
    std::printf("  %-44s %9.3f ms\n", name.c_str(), ms);
  }
  std::printf("  %-44s %9.3f ms (GPU 0, median of %d each)\n", "(sum)", sum, runs);
  const auto close_start = std::chrono::steady_clock::now();
  (void)session->close();
  std::printf("nvmlShutdown: %.3f ms\n", std::chrono::duration<double, std::milli>(
                                             std::chrono::steady_clock::now() - close_start)
                                             .count());
  return 0;
}
