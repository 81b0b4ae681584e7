// A GPU's PCIe link as the kernel sees it (/sys/bus/pci/devices/ADDRESS/current_link_speed,
// current_link_width, max_link_speed, max_link_width), and the maximum of the port it is plugged
// into (the parent of its sysfs device folder): the slot.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace envlock::node::health {

// The sysfs name of NVML's bus id: "00000000:3B:00.0" -> "0000:3b:00.0"; nothing when it is not
// a PCI address.
std::optional<std::string> sysfs_pci_name(std::string_view bus_id);

// The PCIe generation of a link speed as sysfs writes it ("32.0 GT/s PCIe", "16 GT/s"): 2.5 -> 1,
// 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6; nothing for "Unknown" or anything else.
std::optional<int> pcie_gen_of_speed(std::string_view speed);

// Adds pcie.sysfs.{gen,width}.{current,max}, pcie.slot.address and pcie.slot.{gen,width}.max to
// `gpu` (its "pci.bus_id" names the device), each missing with the reason when unreadable; under
// `root`.
void add_pcie_sysfs(nlohmann::json& gpu, const std::filesystem::path& root);

} // namespace envlock::node::health
