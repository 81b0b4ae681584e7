#include "node/health/gpu_health.hpp"

#include "node/health/device_facts.hpp"
#include "util/strings.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

namespace envlock::node::health {

using nlohmann::json;

namespace {

constexpr unsigned long long k_clocks_hw_bits =
    k_clocks_hw_slowdown | k_clocks_hw_thermal | k_clocks_power_brake;

void nvml_read_pci(DeviceFacts& d) {
  const char* call = "nvmlDeviceGetPciInfo_v3";
  NvmlPciInfo pci{};
  if (d.bound(d.api().pci_info, call, {"pci.bus_id"}) &&
      d.answered(d.api().pci_info(d.device(), &pci), call, {"pci.bus_id"})) {
    pci.bus_id[sizeof(pci.bus_id) - 1] = '\0';
    d.set("pci.bus_id", std::string(pci.bus_id), call);
  }
}

void nvml_read_ecc(DeviceFacts& d) {
  const char* mode = "nvmlDeviceGetEccMode";
  int current = 0;
  int pending = 0;
  if (d.bound(d.api().ecc_mode, mode, {"ecc.mode.current", "ecc.mode.pending"}) &&
      d.answered(d.api().ecc_mode(d.device(), &current, &pending), mode,
                 {"ecc.mode.current", "ecc.mode.pending"})) {
    d.set("ecc.mode.current", enabled_word(current), mode);
    d.set("ecc.mode.pending", enabled_word(pending), mode);
  }
  const char* total = "nvmlDeviceGetTotalEccErrors";
  // nvmlMemoryErrorType_t (0 corrected, 1 uncorrected) x nvmlEccCounterType_t (0 volatile, 1
  // aggregate)
  const std::array<std::tuple<const char*, int, int>, 4> counters = {
      {{"ecc.corrected.volatile", 0, 0},
       {"ecc.corrected.aggregate", 0, 1},
       {"ecc.uncorrected.volatile", 1, 0},
       {"ecc.uncorrected.aggregate", 1, 1}}};
  for (const auto& [key, type, counter] : counters) {
    unsigned long long count = 0;
    if (d.bound(d.api().total_ecc, total, {key}) &&
        d.answered(d.api().total_ecc(d.device(), type, counter, &count), total, {key})) {
      d.set(key, count, total);
    }
  }
}

void nvml_read_retirement(DeviceFacts& d) {
  const char* rows = "nvmlDeviceGetRemappedRows";
  const std::initializer_list<const char*> row_keys = {
      "remapped_rows.correctable", "remapped_rows.uncorrectable", "remapped_rows.pending",
      "remapped_rows.failure"};
  unsigned correctable = 0;
  unsigned uncorrectable = 0;
  unsigned pending = 0;
  unsigned failure = 0;
  if (d.bound(d.api().remapped_rows, rows, row_keys) &&
      d.answered(
          d.api().remapped_rows(d.device(), &correctable, &uncorrectable, &pending, &failure), rows,
          row_keys)) {
    d.set("remapped_rows.correctable", correctable, rows);
    d.set("remapped_rows.uncorrectable", uncorrectable, rows);
    d.set("remapped_rows.pending", pending != 0, rows);
    d.set("remapped_rows.failure", failure != 0, rows);
  }
  const char* pending_call = "nvmlDeviceGetRetiredPagesPendingStatus";
  int retired_pending = 0;
  if (d.bound(d.api().retired_pending, pending_call, {"retired_pages.pending"}) &&
      d.answered(d.api().retired_pending(d.device(), &retired_pending), pending_call,
                 {"retired_pages.pending"})) {
    d.set("retired_pages.pending", retired_pending != 0, pending_call);
  }
  const char* pages = "nvmlDeviceGetRetiredPages";
  // nvmlPageRetirementCause_t: 0 multiple single-bit errors, 1 a double-bit error
  for (const auto& [key, cause] :
       {std::pair{"retired_pages.single_bit", 0}, std::pair{"retired_pages.double_bit", 1}}) {
    if (!d.bound(d.api().retired_pages, pages, {key})) {
      continue;
    }
    unsigned count = 0;
    std::array<unsigned long long, 1> addresses{};
    const int rc = d.api().retired_pages(d.device(), cause, &count, addresses.data());
    if (rc == k_nvml_insufficient_size || d.answered(rc, pages, {key})) {
      d.set(key, count, pages);
    }
  }
}

void nvml_read_clocks(DeviceFacts& d) {
  const char* call = "nvmlDeviceGetCurrentClocksEventReasons";
  const std::initializer_list<const char*> keys = {"clocks.event_reasons",
                                                   "clocks.event_reasons.active"};
  unsigned long long first = 0;
  if (!d.bound(d.api().clocks_event_reasons, call, keys) ||
      !d.answered(d.api().clocks_event_reasons(d.device(), &first), call, keys)) {
    return;
  }
  unsigned long long reasons = first;
  if ((first & k_clocks_hw_bits) != 0) {
    // A hardware slowdown counts when a second reading 50 ms later still shows it (NVML may
    // report one during a clock change).
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    d.calling(call);
    unsigned long long second = 0;
    if (!d.answered(d.api().clocks_event_reasons(d.device(), &second), call, keys)) {
      return;
    }
    reasons = (second & ~k_clocks_hw_bits) | (second & first & k_clocks_hw_bits);
  }
  std::array<char, 24> hex{};
  (void)std::snprintf(hex.data(), hex.size(), "0x%llx", reasons);
  d.set("clocks.event_reasons", std::string(hex.data()), call);
  d.set("clocks.event_reasons.active", clock_event_names(reasons), call);
}

void nvml_read_thermal_power(DeviceFacts& d) {
  const NvmlApi& n = d.api();
  if (n.temperature != nullptr) {
    d.calling("nvmlDeviceGetTemperature");
    unsigned temp = 0;
    if (d.answered(n.temperature(d.device(), 0, &temp), "nvmlDeviceGetTemperature",
                   {"temperature_c"})) {
      d.set("temperature_c", temp, "nvmlDeviceGetTemperature");
    }
  } else if (d.bound(n.temperature_v, "nvmlDeviceGetTemperatureV", {"temperature_c"})) {
    NvmlTemperature t{k_nvml_temperature_v1, 0, 0};
    if (d.answered(n.temperature_v(d.device(), &t), "nvmlDeviceGetTemperatureV",
                   {"temperature_c"})) {
      d.set("temperature_c", t.temperature, "nvmlDeviceGetTemperatureV");
    }
  }
  const char* threshold = "nvmlDeviceGetTemperatureThreshold";
  // nvmlTemperatureThresholds_t: 0 shutdown, 1 slowdown
  for (const auto& [key, type] :
       {std::pair{"temperature.shutdown_c", 0}, std::pair{"temperature.slowdown_c", 1}}) {
    unsigned temp = 0;
    if (d.bound(n.temperature_threshold, threshold, {key}) &&
        d.answered(n.temperature_threshold(d.device(), type, &temp), threshold, {key})) {
      d.set(key, temp, threshold);
    }
  }
  for (const auto& [key, call, fn] :
       {std::tuple{"power.draw_w", "nvmlDeviceGetPowerUsage", n.power_usage},
        std::tuple{"power.limit_w", "nvmlDeviceGetEnforcedPowerLimit", n.power_limit}}) {
    unsigned milliwatts = 0;
    if (d.bound(fn, call, {key}) && d.answered(fn(d.device(), &milliwatts), call, {key})) {
      d.set(key, static_cast<double>(milliwatts) / 1000.0, call);
    }
  }
}

void nvml_read_pcie(DeviceFacts& d) {
  const NvmlApi& n = d.api();
  for (const auto& [key, call, fn] :
       {std::tuple{"pcie.gen.current", "nvmlDeviceGetCurrPcieLinkGeneration", n.pcie_gen},
        std::tuple{"pcie.gen.max", "nvmlDeviceGetMaxPcieLinkGeneration", n.pcie_max_gen},
        std::tuple{"pcie.gen.gpu_max", "nvmlDeviceGetGpuMaxPcieLinkGeneration", n.pcie_gpu_max_gen},
        std::tuple{"pcie.width.current", "nvmlDeviceGetCurrPcieLinkWidth", n.pcie_width},
        std::tuple{"pcie.width.max", "nvmlDeviceGetMaxPcieLinkWidth", n.pcie_max_width},
        std::tuple{"pcie.replays", "nvmlDeviceGetPcieReplayCounter", n.pcie_replays}}) {
    unsigned value = 0;
    if (d.bound(fn, call, {key}) && d.answered(fn(d.device(), &value), call, {key})) {
      d.set(key, value, call);
    }
  }
}

} // namespace

std::string clock_event_names(unsigned long long mask) {
  static const std::array<std::pair<unsigned long long, const char*>, 9> names = {
      {{0x1, "idle"},
       {0x2, "applications_clocks_setting"},
       {0x4, "sw_power_cap"},
       {k_clocks_hw_slowdown, "hw_slowdown"},
       {k_clocks_sync_boost, "sync_boost"},
       {k_clocks_sw_thermal, "sw_thermal_slowdown"},
       {k_clocks_hw_thermal, "hw_thermal_slowdown"},
       {k_clocks_power_brake, "hw_power_brake_slowdown"},
       {0x100, "display_clock_setting"}}};
  std::vector<std::string> out;
  unsigned long long known = 0;
  for (const auto& [bit, name] : names) {
    known |= bit;
    if ((mask & bit) != 0) {
      out.emplace_back(name);
    }
  }
  if ((mask & ~known) != 0) {
    std::array<char, 24> hex{};
    (void)std::snprintf(hex.data(), hex.size(), "0x%llx", mask & ~known);
    out.push_back(std::string("other ") + hex.data());
  }
  return out.empty() ? "none" : util::join(out, ", ");
}

json read_gpu_health(const NvmlSession& nvml, NvmlDevice device, unsigned index,
                     const std::filesystem::path& root) {
  json out = {{"index", index}, {"lost", false}};
  DeviceFacts d(nvml, device, out);
  nvml_read_pci(d);
  nvml_read_ecc(d);
  nvml_read_retirement(d);
  nvml_read_clocks(d);
  nvml_read_thermal_power(d);
  nvml_read_pcie(d);
  read_nvlink(d);
  read_fabric(d, nvml);
  read_modes(d);
  read_processes(d, root);
  return out;
}

} // namespace envlock::node::health
