// expect.host.health: what a node of this kind must have to be healthy (docs/manual/health.md):
// the PCIe link of every GPU, its NVLink links, the InfiniBand/RoCE ports and their rate, the
// hottest a GPU may run, whether MIG is on, the XIDs that are not faults here, and the services
// that must run. Every key is optional; an absent key takes the default the manual names, chosen
// to fail safe.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::lock {

// Whether MIG must be off ("disabled", the default), on ("enabled"), or either ("any").
enum class MigExpect { disabled, enabled, any };

// "disabled" / "enabled" / "any"
const char* to_string(MigExpect mig);

struct HealthExpect {
  std::optional<std::int64_t> pcie_gen;          // the least current PCIe generation of a GPU
  std::optional<std::int64_t> pcie_width;        // the least current PCIe width (lanes)
  std::optional<std::int64_t> nvlink_links;      // NVLink links up on every GPU
  std::optional<std::int64_t> ib_ports;          // InfiniBand/RoCE ports active, at least
  std::optional<std::int64_t> ib_rate_gbps;      // the least rate of an active port, Gb/s
  std::optional<std::string> ib_link_layer;      // "InfiniBand" or "Ethernet": the ports counted
  std::optional<std::int64_t> max_temperature_c; // the hottest a GPU may be, degrees C
  std::optional<MigExpect> mig;
  std::optional<std::vector<std::int64_t>> tolerated_xids; // XIDs reported, never judged
  std::optional<bool> fabric_manager;                      // nv-fabricmanager must run
  std::optional<bool> nvlsm;                               // the NVLink Subnet Manager must run
  std::optional<bool> gpudirect_rdma;                      // nvidia_peermem must be loaded
  bool operator==(const HealthExpect&) const = default;
};

// The keys expect.host.health accepts, in documentation order.
const std::vector<std::string>& health_keys();

// Reads an expect.host.health object. An input error names the key: "expect.host.health.pcie_gen:
// expected an integer >= 1", "expect.host.health.mig: 'off' is not one of disabled, enabled, any",
// "expect.host.health: unknown key 'pcie_wdth'; did you mean 'pcie_width'?".
Result<HealthExpect> read_health_expect(const nlohmann::json& value);

// expect.host.health as the lock writes it: the declared keys only.
nlohmann::json health_expect_to_json(const HealthExpect& health);

} // namespace envlock::lock
