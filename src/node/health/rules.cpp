#include "node/health/rules.hpp"

#include "node/health/finding.hpp"

#include <algorithm>
#include <cstdlib>

namespace envlock::node::health {

const std::vector<Rule>& health_rules() {
  using namespace action;
  static const std::vector<Rule> rules = {
      {"health.gpu.nvml", "NVML answers for every GPU",
       "NVML cannot be loaded, or gives no handle for a GPU, where the lock expects GPUs; NVML "
       "loaded and then failed, answered nonsense (more than 64 GPUs) or did not answer within "
       "`--nvml-timeout`, on any node",
       k_drain},
      {"health.gpu.lost", "No GPU has fallen off the bus",
       "NVML answers GPU_IS_LOST: the GPU is no longer reachable over PCIe", k_reboot},
      {"health.gpu.xid", "No XID since boot that needs a reset or a reboot",
       "the driver logged an XID that needs a GPU reset, a reboot or a drain since boot (see "
       "XIDs); an application's XID is a warning",
       "by the XID: drain, reset the GPU; drain, reboot; or drain"},
      {"health.gpu.row_remap_failure", "No row remapping failure",
       "a memory row could not be remapped: the GPU has run out of spare rows", k_repair},
      {"health.gpu.row_remap_pending", "No row remap pending",
       "a memory row waits to be remapped, which happens at the next GPU reset", k_reset_gpu},
      {"health.gpu.ecc_uncorrected", "No uncorrected ECC error since the driver loaded",
       "an uncorrectable memory error since the driver loaded (volatile count); the lifetime "
       "(aggregate) count alone is a warning",
       k_reset_gpu},
      {"health.gpu.retired_pages_pending", "No page retirement pending",
       "on a GPU without row remapping, a memory page waits to be retired at the next reboot",
       k_reboot},
      {"health.gpu.ecc_disabled", "ECC enabled",
       "ECC is off; a pending mode unlike the current "
       "one is a warning",
       k_enable_ecc},
      {"health.gpu.inforom", "Inforom valid", "the GPU's inforom is corrupted", k_repair},
      {"health.gpu.hw_slowdown", "No hardware slowdown",
       "the GPU halves its clocks or more (HW slowdown) in two readings 50 ms apart",
       k_cooling_power},
      {"health.gpu.hw_thermal_slowdown", "No hardware thermal slowdown",
       "the GPU slows down because it is too hot (HW thermal slowdown)", k_cooling},
      {"health.gpu.power_brake", "No power brake slowdown",
       "the system asserts the power brake (HW power brake slowdown)", k_power},
      {"health.gpu.sw_thermal_slowdown", "No software thermal slowdown",
       "the driver slows the GPU down because it is hot (a warning)", k_cooling_later},
      {"health.gpu.temperature", "GPU temperature below the limit",
       "the GPU is at or above expect.host.health.max_temperature_c, or else its slowdown "
       "threshold",
       k_cooling},
      {"health.pcie.width", "PCIe link at full width",
       "the GPU's PCIe link trained narrower than expect.host.health.pcie_width, or else the "
       "least maximum of the GPU and its slot (x8 of x16)",
       k_reseat_gpu},
      {"health.pcie.gen", "PCIe link at full speed",
       "the GPU's PCIe link runs at a lower generation than expect.host.health.pcie_gen (a "
       "failure), or than the least maximum of the GPU and its slot (a warning)",
       k_reseat_gpu},
      {"health.nvlink.down", "NVLink links up",
       "an NVLink link of the GPU is down, or fewer are up than expect.host.health.nvlink_links",
       k_reset_gpu},
      {"health.fabric.state", "GPUs registered in the NVLink fabric",
       "on an NVSwitch system, the GPU's fabric registration has not completed, failed, or its "
       "health is unhealthy",
       k_restart_fabric_manager},
      {"health.fabric.manager_down", "Fabric Manager running",
       "no process of root runs the installed nv-fabricmanager, where a GPU is on an NVLink "
       "fabric or "
       "expect.host.health.fabric_manager is true",
       k_start_fabric_manager},
      {"health.fabric.nvlsm_down", "NVLink Subnet Manager running",
       "no process of root runs the installed nvlsm, where expect.host.health.nvlsm is true",
       k_start_nvlsm},
      {"health.gpu.mig", "MIG mode as expected",
       "MIG is on where expect.host.health.mig is disabled (the default), or off where it is "
       "enabled; a pending mode unlike the current one is a warning",
       k_set_mig},
      {"health.gpu.processes", "No process on a GPU of an idle node",
       "with --idle (the prolog): a process holds a GPU before the job starts", k_end_processes},
      {"health.gpu.persistence_off", "Persistence mode on",
       "persistence mode is off (a warning: the driver reinitialises the GPU for each job)",
       k_persistence},
      {"health.gpu.vbios_mixed", "One VBIOS on every GPU",
       "the GPUs of the node run different VBIOS versions (a warning)", k_vbios},
      {"health.ib.port_down", "InfiniBand/RoCE ports active",
       "fewer ports are ACTIVE than expect.host.health.ib_ports (each down port named); without "
       "it, a port that is not ACTIVE is a warning",
       k_reseat_cable},
      {"health.ib.rate", "InfiniBand/RoCE ports at full rate",
       "an active port runs below expect.host.health.ib_rate_gbps; a rate that is not the "
       "kernel's decimal `N Gb/sec` (`nan`, `inf`, a sign, an exponent) cannot be read and fails",
       k_reseat_cable},
      {"health.ib.peermem_missing", "nvidia_peermem loaded (GPUDirect RDMA)",
       "nvidia_peermem is not loaded where expect.host.health.gpudirect_rdma is true",
       k_load_peermem},
      {"health.dcgm.diag", "DCGM quick diagnostic passes",
       "a test of dcgmi diag -r 1 fails (Warn is a warning); skipped where dcgmi is not installed",
       k_dcgm},
  };
  return rules;
}

const Rule& health_rule(const std::string& id) {
  const auto& rules = health_rules();
  const auto it =
      std::find_if(rules.begin(), rules.end(), [&](const Rule& r) { return r.id == id; });
  if (it == rules.end()) {
    std::abort(); // a rule id the code names but the table lacks: a defect
  }
  return *it;
}

} // namespace envlock::node::health
