// The InfiniBand and RoCE ports of the host, from /sys/class/infiniband/DEVICE/ports/N/{state,
// phys_state,rate,link_layer}, and whether nvidia_peermem (GPUDirect RDMA) is loaded
// (/sys/module/nvidia_peermem).
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace envlock::node::health {

// {"value": [{"port": "mlx5_0/1", "state": "ACTIVE", "phys_state": "LinkUp", "rate_gbps": 400,
// "rate": "400 Gb/sec (4X NDR)", "link_layer": "InfiniBand"}, ...], "source":
// "/sys/class/infiniband"} sorted by port; [] when the folder does not exist. A port file that
// cannot be read makes that field null and names it in the port's "missing".
nlohmann::json read_ib_ports(const std::filesystem::path& root);

// "400 Gb/sec (4X NDR)" -> 400; nothing when the text does not start with a number.
std::optional<double> ib_rate_gbps(std::string_view rate);

// {"value": "loaded"|"not loaded", "source": "/sys/module/nvidia_peermem"}.
nlohmann::json read_peermem(const std::filesystem::path& root);

} // namespace envlock::node::health
