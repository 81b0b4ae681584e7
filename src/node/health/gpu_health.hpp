// The health facts of one GPU, read through NVML in the inventory's session: ECC mode and error
// counts, remapped rows or retired pages, clock event reasons, temperature and its thresholds,
// power, the PCIe link, NVLink links, the NVLink fabric, persistence, MIG and compute modes, the
// processes on it and its inforom. Each value names the NVML call it came from.
#pragma once

#include "node/nvml.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace envlock::node::health {

// {"index": I, "lost": true|false, KEY: value fact, ...} (docs/formats/node-facts.md). Never
// fails: a call that fails leaves its values missing with NVML's error; a call that answers
// GPU_IS_LOST marks the GPU lost. Process names are read from `root`/proc/PID/comm.
nlohmann::json read_gpu_health(const NvmlSession& nvml, NvmlDevice device, unsigned index,
                               const std::filesystem::path& root);

// The clock event reasons set in `mask`, by nvidia-smi's names ("idle", "hw_slowdown", ...),
// joined with ", "; "none" for 0.
std::string clock_event_names(unsigned long long mask);

// nvmlClocksEventReason* bits.
inline constexpr unsigned long long k_clocks_idle = 0x1;
inline constexpr unsigned long long k_clocks_sync_boost = 0x10;
inline constexpr unsigned long long k_clocks_hw_slowdown = 0x8;
inline constexpr unsigned long long k_clocks_sw_thermal = 0x20;
inline constexpr unsigned long long k_clocks_hw_thermal = 0x40;
inline constexpr unsigned long long k_clocks_power_brake = 0x80;

} // namespace envlock::node::health
