// The health facts of a host: per GPU (health/gpu_health.hpp, with its PCIe link from sysfs) and
// per host (XIDs from the kernel log, Fabric Manager and NVLSM processes, InfiniBand/RoCE ports,
// nvidia_peermem, DCGM's quick diagnostic). The "health" object of the node facts
// (docs/formats/node-facts.md); judged by health/judge.hpp.
#pragma once

#include "node/gpus.hpp"
#include "node/health/dcgm.hpp"
#include "node/health/kernel_log.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace envlock::node::health {

struct HealthSources {
  std::filesystem::path root = "/"; // prefix of /sys, /proc and /dev/kmsg
  RunDmesg dmesg = RunDmesg::yes;   // `dmesg` when /dev/kmsg cannot be read
  RunDcgm dcgm = RunDcgm::yes;      // `dcgmi diag -r 1 --json` where installed
};

// The per-GPU reader read_gpus() calls in its NVML session.
PerGpuReader gpu_health_reader(const std::filesystem::path& root);

// {"nvml": fact, "gpus": [...], "host": {KEY: fact}}. Never fails; what cannot be read is missing
// with the reason. `inventory` is read_gpus()'s, with gpu_health_reader()'s answers.
nlohmann::json collect_health(const HealthSources& sources, const GpuInventory& inventory);

} // namespace envlock::node::health
