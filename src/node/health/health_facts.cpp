#include "node/health/health_facts.hpp"

#include "node/health/gpu_health.hpp"
#include "node/health/infiniband.hpp"
#include "node/health/pcie_sysfs.hpp"
#include "node/health/services.hpp"
#include "node/health/value.hpp"

#include <map>

namespace envlock::node::health {

using nlohmann::json;

namespace {

// "0000:3b:00" (as the XID names a GPU) -> GPU index, from each GPU's NVML bus id.
std::map<std::string, json> gpu_by_pci(const json& gpus) {
  std::map<std::string, json> out;
  for (const auto& gpu : gpus) {
    const auto bus_id = value_of(gpu, "pci.bus_id");
    if (!bus_id || !bus_id->is_string()) {
      continue;
    }
    if (const auto name = sysfs_pci_name(bus_id->get<std::string>())) {
      out[name->substr(0, name->rfind('.'))] = gpu.value("index", json(nullptr));
    }
  }
  return out;
}

json xid_facts(const KernelLog& log, const json& gpus) {
  if (!log.missing.empty()) {
    json missing = missing_value("/dev/kmsg", log.missing);
    if (log.denied) {
      missing["denied"] = true;
    }
    return missing;
  }
  const auto by_pci = gpu_by_pci(gpus);
  json events = json::array();
  for (const auto& event : parse_xids(log)) {
    const auto gpu = by_pci.find(event.pci);
    events.push_back({{"xid", event.xid},
                      {"pci", event.pci},
                      {"gpu", gpu == by_pci.end() ? json(nullptr) : gpu->second},
                      {"seconds", event.seconds ? json(*event.seconds) : json(nullptr)},
                      {"message", event.message}});
  }
  return value_fact(std::move(events), log.source);
}

} // namespace

PerGpuReader gpu_health_reader(const std::filesystem::path& root) {
  return [root](const NvmlSession& nvml, NvmlDevice device, unsigned index) {
    return read_gpu_health(nvml, device, index, root);
  };
}

json collect_health(const HealthSources& sources, const GpuInventory& inventory) {
  json out = json::object();
  out["nvml"] =
      inventory.nvml_missing.empty() && !inventory.source.empty() &&
              inventory.source != "nvidia-smi"
          ? value_fact(inventory.source, "dlopen")
          : missing_value("nvml", inventory.nvml_missing.empty() ? inventory.missing
                                                                 : inventory.nvml_missing);
  json gpus = json::array();
  for (const auto& gpu : inventory.per_gpu) {
    json g = gpu;
    if (!g.contains("missing")) {
      add_pcie_sysfs(g, sources.root);
    }
    gpus.push_back(std::move(g));
  }
  json host = json::object();
  const KernelLog log = read_kernel_log(sources.root, sources.dmesg);
  host["xids"] = xid_facts(log, gpus);
  auto services = process_states(sources.root, {"nv-fabricmanager", "nvlsm"});
  host["fabric_manager"] = std::move(services["nv-fabricmanager"]);
  host["nvlsm"] = std::move(services["nvlsm"]);
  host["ib.ports"] = read_ib_ports(sources.root);
  host["nvidia_peermem"] = read_peermem(sources.root);
  host["dcgm"] = run_dcgm_diag(sources.dcgm);
  out["gpus"] = std::move(gpus);
  out["host"] = std::move(host);
  return out;
}

} // namespace envlock::node::health
