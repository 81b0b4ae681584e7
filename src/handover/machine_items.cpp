// Handover rows 1 and 2: the machine (hardware to driver) and what runs on it (services, container
// tools, packages, configuration).
#include "handover/items.hpp"
#include "handover/json_pick.hpp"
#include "util/strings.hpp"

namespace envlock::handover::detail {

HandoverRow hardware_row(const Records& r) {
  HandoverRow row{"hardware",
                  "Hardware, firmware, operating-system, kernel and driver versions",
                  "Identify the machine and its underlying software conditions",
                  {}};
  row.items = {fact(r, "System vendor", "hardware.vendor"),
               fact(r, "System product", "hardware.product"),
               fact(r, "System serial number", "hardware.serial"),
               fact(r, "BIOS version", "bios.version"),
               fact(r, "GPU model", "gpu.model"),
               fact(r, "GPU count", "gpu.count"),
               fact(r, "GPU VBIOS", "gpu.vbios"),
               fact(r, "Operating system", "os"),
               fact(r, "Kernel", "kernel"),
               fact(r, "NVIDIA driver", "driver")};
  return row;
}

HandoverRow services_row(const Records& r) {
  HandoverRow row{"services",
                  "Management services, container tools, packages and configuration",
                  "Reinstall the same system and production runtime",
                  {}};
  row.items = {fact(r, "Fabric Manager", "fabric_manager"),
               fact(r, "NVLink Subnet Manager", "nvlsm"),
               fact(r, "NVIDIA Container Toolkit", "container_toolkit"),
               fact(r, "Docker", "docker"),
               fact(r, "Enroot", "enroot"),
               fact(r, "Pyxis", "pyxis"),
               fact(r, "Pyxis in plugstack.conf", "pyxis.plugstack"),
               fact(r, "Slurm", "slurm"),
               pick(r.lock, "uv", {"python.uv.version"}),
               pick(r.lock, "uv.lock", {"python.uv_lock.path"})};
  const nlohmann::json* packages =
      r.lock ? json_at(r.lock->json, "python.uv_lock.packages") : nullptr;
  if (packages != nullptr && packages->is_array()) {
    row.items.push_back(derived(*r.lock, "Python packages locked", std::to_string(packages->size()),
                                "python.uv_lock.packages"));
  } else {
    row.items.push_back(missing("Python packages locked"));
  }
  const nlohmann::json* args = r.lock ? json_at(r.lock->json, "build_args") : nullptr;
  if (args != nullptr && args->is_object() && !args->empty()) {
    std::vector<std::string> parts;
    for (const auto& [k, v] : args->items()) {
      parts.push_back(k + "=" + (v.is_string() ? v.get<std::string>() : v.dump()));
    }
    row.items.push_back(derived(*r.lock, "Build arguments", util::join(parts, " "), "build_args"));
  } else {
    row.items.push_back(missing("Build arguments"));
  }
  row.items.push_back(pick(r.lock, "Enroot squash options", {"enroot.squash_options"}));
  row.items.push_back(pick(r.lock, "SOURCE_DATE_EPOCH", {"enroot.source_date_epoch"}));
  return row;
}

} // namespace envlock::handover::detail
