// The GPUs of the host, through NVML (dlopen of libnvidia-ml.so.1) or, without it, nvidia-smi.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::node {

struct GpuInventory {
  // [{"index", "name", "uuid", "vbios", "health"}], in index order; empty when unreadable.
  nlohmann::json gpus = nlohmann::json::array();
  std::string driver;  // the driver version NVML or nvidia-smi reports, "" when unknown
  std::string source;  // "nvml (libnvidia-ml.so.1)" or "nvidia-smi"
  std::string missing; // why no GPU list could be read ("" when it was)
};

// Reads the GPUs. Never fails: `missing` joins the reasons of every way tried, e.g.
// "libnvidia-ml.so.1 not found; nvidia-smi: not in PATH".
GpuInventory read_gpus(const std::vector<std::string>& nvml_names, bool run_programs);

} // namespace envlock::node
