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

// What the health facts read of the host without the GPU list, so that it is read while the
// GPUs are: the kernel log (its XIDs are mapped to GPUs later), and every host fact but "xids"
// and "dcgm" (DCGM's diagnostic runs after NVML is read, run_dcgm_diag, never beside it).
struct HostHealth {
  KernelLog log;
  nlohmann::json host = nlohmann::json::object();
};

// Never fails; what cannot be read is missing with the reason.
HostHealth read_host_health(const HealthSources& sources);

// {"nvml": fact, "gpus": [...], "host": {KEY: fact}}. Never fails; what cannot be read is missing
// with the reason. `inventory` is read_gpus()'s, with gpu_health_reader()'s answers; `root` is
// the sources' (the GPUs' PCIe links in sysfs).
nlohmann::json collect_health(const std::filesystem::path& root, HostHealth host_health,
                              const GpuInventory& inventory);

} // namespace envlock::node::health
