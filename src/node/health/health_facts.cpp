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

HostHealth read_host_health(const HealthSources& sources) {
  HostHealth out;
  out.log = read_kernel_log(sources.root, sources.dmesg);
  auto services = process_states(sources.root, {"nv-fabricmanager", "nvlsm"});
  out.host["fabric_manager"] = std::move(services["nv-fabricmanager"]);
  out.host["nvlsm"] = std::move(services["nvlsm"]);
  out.host["ib.ports"] = read_ib_ports(sources.root);
  out.host["nvidia_peermem"] = read_peermem(sources.root);
  return out;
}

json collect_health(const std::filesystem::path& root, HostHealth host_health,
                    const GpuInventory& inventory) {
  json out = json::object();
  out["nvml"] =
      inventory.nvml_missing.empty() && !inventory.source.empty() &&
              inventory.source != "nvidia-smi"
          ? value_fact(inventory.source, "dlopen")
          : missing_value("nvml", inventory.nvml_missing.empty() ? inventory.missing
                                                                 : inventory.nvml_missing);
  if (!inventory.nvml_fault.empty()) {
    // NVML loaded and then failed, answered nonsense or hung: a fault of the node.
    out["nvml"] = missing_value("nvml", inventory.nvml_fault);
    out["nvml"]["fault"] = true;
  }
  json gpus = json::array();
  for (const auto& gpu : inventory.per_gpu) {
    json g = gpu;
    if (!g.contains("missing")) {
      add_pcie_sysfs(g, root);
    }
    gpus.push_back(std::move(g));
  }
  json host = std::move(host_health.host);
  host["xids"] = xid_facts(host_health.log, gpus);
  out["gpus"] = std::move(gpus);
  out["host"] = std::move(host);
  return out;
}

} // namespace envlock::node::health
