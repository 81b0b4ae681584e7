// The GPUs of the host, through NVML (dlopen of libnvidia-ml.so.1) or, without it, nvidia-smi.
#pragma once

#include "node/nvml.hpp"

#include <chrono>
#include <functional>
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
  // What the PerGpuReader returned for each GPU, in index order (NVML only; empty otherwise).
  nlohmann::json per_gpu = nlohmann::json::array();
  std::string nvml_missing; // why NVML could not be read ("" when it was)
  // Set when NVML loaded and then failed, answered nonsense (more than k_max_gpus GPUs) or did
  // not answer within the deadline: a fault of the node, whatever the lock expects of its GPUs.
  std::string nvml_fault;
};

// The most GPUs a node can hold; an NVML that reports more is answering nonsense.
inline constexpr unsigned k_max_gpus = 64;

// How long NVML may take to answer, from nvmlInit_v2 to nvmlShutdown, by default.
inline constexpr std::chrono::milliseconds k_nvml_deadline{5000};

// Reads more of one GPU in the same NVML session as the inventory (the health facts).
using PerGpuReader = std::function<nlohmann::json(const NvmlSession&, NvmlDevice, unsigned)>;

// Reads the GPUs. Never fails: `missing` joins the reasons of every way tried, e.g.
// "libnvidia-ml.so.1 not found; nvidia-smi: not in PATH".
// `per_gpu`, when set, is called for every GPU NVML gives a handle for. NVML is read on threads
// of its own, each GPU on one; a call still unanswered at `deadline` is named ("CALL did not
// answer within 5 s") as its GPU's failure, or NVML's when no GPU was counted yet, and its
// thread is left behind (nvml_abandoned()).
GpuInventory read_gpus(const std::vector<std::string>& nvml_names, bool run_programs,
                       const PerGpuReader& per_gpu = {},
                       std::chrono::milliseconds deadline = k_nvml_deadline);

} // namespace envlock::node
