// One health finding: what is wrong (a stable id, docs/manual/health.md), where (a GPU, a port,
// the host), how bad (fail: the node must not run jobs; warn: it may), and what an operator does.
// Its drain line is what `sinfo -R` shows: "health.gpu.row_remap_pending GPU 3: drain, reset the
// GPU".
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace envlock::node::health {

enum class Severity { fail, warn };

// "fail" / "warn"
const char* to_string(Severity severity);

// The actions findings name (docs/manual/health.md, "Actions").
namespace action {
inline constexpr const char* k_drain = "drain";
inline constexpr const char* k_reset_gpu = "drain, reset the GPU";
inline constexpr const char* k_reboot = "drain, reboot";
inline constexpr const char* k_reseat_gpu = "drain, reseat the GPU";
inline constexpr const char* k_reseat_cable = "drain, reseat the cable";
inline constexpr const char* k_repair = "drain, return for repair";
inline constexpr const char* k_cooling = "drain, check the cooling";
inline constexpr const char* k_power = "drain, check the power supply";
inline constexpr const char* k_cooling_power = "drain, check the cooling and the power supply";
inline constexpr const char* k_start_fabric_manager = "drain, start Fabric Manager";
inline constexpr const char* k_restart_fabric_manager = "drain, restart Fabric Manager";
inline constexpr const char* k_start_nvlsm = "drain, start NVLSM";
inline constexpr const char* k_enable_ecc = "drain, enable ECC and reset the GPU";
inline constexpr const char* k_set_mig = "drain, set the MIG mode and reset the GPU";
inline constexpr const char* k_end_processes = "drain, end the processes";
inline constexpr const char* k_load_peermem = "drain, load nvidia_peermem";
inline constexpr const char* k_dcgm = "drain, run dcgmi diag -r 3";
inline constexpr const char* k_restart_app = "none for the node (the application failed)";
inline constexpr const char* k_apply_reset = "reset the GPU to apply the pending mode";
inline constexpr const char* k_persistence = "enable persistence mode";
inline constexpr const char* k_vbios = "flash one VBIOS on every GPU";
inline constexpr const char* k_watch = "watch the GPU; return it for repair if it recurs";
inline constexpr const char* k_reseat_later = "reseat when the node is drained";
inline constexpr const char* k_cooling_later = "check the cooling";
inline constexpr const char* k_check_port = "check whether the port should be cabled";
} // namespace action

struct Finding {
  std::string id; // "health.gpu.row_remap_pending"
  Severity severity = Severity::fail;
  std::string subject; // "GPU 3", "mlx5_2/1", "host"
  std::string what;    // "1 row remap pending"
  std::string action;  // one of action::k_*
  std::string source;  // where the value came from ("nvmlDeviceGetRemappedRows")

  // "ID SUBJECT: ACTION" ("ID: ACTION" without a subject).
  [[nodiscard]] std::string drain_line() const;
  // "SUBJECT: WHAT; ACTION"
  [[nodiscard]] std::string text() const;
};

// {"id", "severity", "subject", "what", "action", "source"}
nlohmann::json finding_to_json(const Finding& finding);

} // namespace envlock::node::health
