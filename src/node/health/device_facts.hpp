// Internal to the GPU health reader (gpu_health.cpp, gpu_fabric.cpp, gpu_modes.cpp): the facts
// of one device, filled call by call.
#pragma once

#include "node/health/value.hpp"
#include "node/nvml.hpp"

#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

namespace envlock::node::health {

using nlohmann::json;

// Records the answers of one device's NVML calls into its facts object.
class DeviceFacts {
public:
  DeviceFacts(const NvmlSession& nvml, NvmlDevice device, json& out)
      : m_nvml(nvml), m_device(device), m_out(out) {}

  [[nodiscard]] NvmlDevice device() const { return m_device; }
  [[nodiscard]] const NvmlApi& api() const { return m_nvml.api(); }

  // Whether `fn` is bound; otherwise `keys` are missing with "CALL: not in this NVML".
  // Names the call this thread is about to make (nvml_calling), for a deadline's message.
  void calling(const char* call) { nvml_calling(call); }

  // `keys` are missing because NVML answered `call` with nonsense (`what`).
  void nonsense(const char* call, std::initializer_list<const char*> keys,
                const std::string& what) {
    for (const char* key : keys) {
      m_out[key] = missing_value(call, std::string(call) + ": " + what);
    }
  }

  template <typename F>
  bool bound(F* fn, const char* call, std::initializer_list<const char*> keys) {
    nvml_calling(call);
    if (fn != nullptr) {
      return true;
    }
    std::string why(call);
    why.append(": not in this NVML");
    for (const char* key : keys) {
      m_out[key] = missing_value(call, why);
    }
    return false;
  }

  // Whether `rc` is success; otherwise `keys` are missing (or unsupported) with NVML's error.
  bool answered(int rc, const char* call, std::initializer_list<const char*> keys) {
    if (rc == k_nvml_success) {
      return true;
    }
    if (rc == k_nvml_gpu_is_lost) {
      m_out["lost"] = true;
    }
    const std::string why = m_nvml.error_text(call, rc);
    for (const char* key : keys) {
      m_out[key] =
          rc == k_nvml_not_supported ? unsupported_value(call, why) : missing_value(call, why);
    }
    return false;
  }

  void set(const char* key, json value, const char* call) {
    m_out[key] = value_fact(std::move(value), call);
  }

private:
  const NvmlSession& m_nvml;
  NvmlDevice m_device;
  json& m_out;
};

// "enabled" for a non-zero nvmlEnableState_t, else "disabled".
inline const char* enabled_word(int state) {
  return state != 0 ? "enabled" : "disabled";
}

// NVLink links and the NVLink fabric (gpu_fabric.cpp).
void read_nvlink(DeviceFacts& d);
void read_fabric(DeviceFacts& d, const NvmlSession& nvml);

// Persistence, MIG and compute modes, the inforom, and the processes on the GPU (gpu_modes.cpp).
void read_modes(DeviceFacts& d);
void read_processes(DeviceFacts& d, const std::filesystem::path& root);

} // namespace envlock::node::health
