#include "node/health/pcie_sysfs.hpp"

#include "node/fact.hpp"
#include "node/health/value.hpp"
#include "util/strings.hpp"

#include <cctype>
#include <cstdlib>
#include <system_error>

namespace envlock::node::health {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool is_pci_address(std::string_view name) {
  // DDDD:BB:DD.F
  if (name.size() != 12 || name[4] != ':' || name[7] != ':' || name[10] != '.') {
    return false;
  }
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (i != 4 && i != 7 && i != 10 && std::isxdigit(static_cast<unsigned char>(name[i])) == 0) {
      return false;
    }
  }
  return true;
}

// One link file of a device folder (`shown` is its path as the host names it).
json pcie_link_value(const fs::path& root, const std::string& shown, bool speed) {
  std::string why;
  const auto text = read_host_file(root, shown, why);
  if (!text) {
    return missing_value(shown, why);
  }
  const std::string line(util::trim(text->substr(0, text->find('\n'))));
  if (speed) {
    const auto gen = pcie_gen_of_speed(line);
    return gen ? value_fact(*gen, shown) : missing_value(shown, shown + ": '" + line + "'");
  }
  char* end = nullptr;
  const long width = std::strtol(line.c_str(), &end, 10);
  if (line.empty() || end == nullptr || *end != '\0' || width <= 0) {
    return missing_value(shown, shown + ": '" + line + "'");
  }
  return value_fact(width, shown);
}

} // namespace

std::optional<std::string> sysfs_pci_name(std::string_view bus_id) {
  // NVML writes an 8-digit domain ("00000000:3B:00.0"); sysfs a 4-digit one.
  const std::string text = util::to_lower(bus_id);
  if (text.size() < 12) {
    return std::nullopt;
  }
  const std::string name = text.substr(text.size() - 12);
  return is_pci_address(name) ? std::optional(name) : std::nullopt;
}

std::optional<int> pcie_gen_of_speed(std::string_view speed) {
  const std::string text(util::trim(speed));
  char* end = nullptr;
  const double rate = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || std::string_view(end).find("GT/s") == std::string_view::npos) {
    return std::nullopt;
  }
  const std::pair<double, int> gens[] = {{2.5, 1}, {5, 2}, {8, 3}, {16, 4}, {32, 5}, {64, 6}};
  for (const auto& [gt, gen] : gens) {
    if (rate > gt - 0.01 && rate < gt + 0.01) {
      return gen;
    }
  }
  return std::nullopt;
}

void add_pcie_sysfs(json& gpu, const fs::path& root) {
  const auto bus_id = value_of(gpu, "pci.bus_id");
  const auto name =
      bus_id && bus_id->is_string() ? sysfs_pci_name(bus_id->get<std::string>()) : std::nullopt;
  const char* keys[] = {"pcie.sysfs.gen.current", "pcie.sysfs.width.current", "pcie.sysfs.gen.max",
                        "pcie.sysfs.width.max",   "pcie.slot.address",        "pcie.slot.gen.max",
                        "pcie.slot.width.max"};
  if (!name) {
    for (const char* key : keys) {
      gpu[key] = missing_value("/sys/bus/pci/devices", "the GPU's PCI address is unknown: " +
                                                           why_missing(gpu, "pci.bus_id"));
    }
    return;
  }
  const std::string device = "/sys/bus/pci/devices/" + *name;
  gpu["pcie.sysfs.gen.current"] = pcie_link_value(root, device + "/current_link_speed", true);
  gpu["pcie.sysfs.width.current"] = pcie_link_value(root, device + "/current_link_width", false);
  gpu["pcie.sysfs.gen.max"] = pcie_link_value(root, device + "/max_link_speed", true);
  gpu["pcie.sysfs.width.max"] = pcie_link_value(root, device + "/max_link_width", false);
  // The device folder is a link into /sys/devices/pci.../PORT/DEVICE; PORT is the slot.
  std::error_code ec;
  const fs::path real = fs::canonical(root / fs::path(device).relative_path(), ec);
  const fs::path real_root = fs::canonical(root, ec);
  const std::string parent = ec ? std::string() : real.parent_path().filename().string();
  if (ec || parent.empty()) {
    for (const char* key : {"pcie.slot.address", "pcie.slot.gen.max", "pcie.slot.width.max"}) {
      gpu[key] = missing_value(device, device + ": " + (ec ? ec.message() : "no parent folder"));
    }
    return;
  }
  if (!is_pci_address(parent)) {
    for (const char* key : {"pcie.slot.address", "pcie.slot.gen.max", "pcie.slot.width.max"}) {
      gpu[key] = missing_value(device, "no upstream port: the GPU sits on root bus " + parent);
    }
    return;
  }
  // The slot's path as the host names it: the canonical path without the root's.
  std::string slot = real.parent_path().string();
  const std::string prefix = real_root.string() == "/" ? std::string() : real_root.string();
  if (!prefix.empty() && slot.rfind(prefix, 0) == 0) {
    slot = slot.substr(prefix.size());
  }
  gpu["pcie.slot.address"] = value_fact(parent, slot);
  gpu["pcie.slot.gen.max"] = pcie_link_value(root, slot + "/max_link_speed", true);
  gpu["pcie.slot.width.max"] = pcie_link_value(root, slot + "/max_link_width", false);
}

} // namespace envlock::node::health
