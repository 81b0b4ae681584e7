// NVML, the NVIDIA Management Library, loaded with dlopen (libnvidia-ml.so.1 comes with the
// driver; nothing links against it): the one table of its functions that node reads, and a
// session that initialises it and shuts it down. The declarations follow NVIDIA's nvml.h (NVML
// API 13); the structures mirror its layouts byte for byte.
#pragma once

#include "util/dl.hpp"
#include "util/result.hpp"

#include <atomic>
#include <string>
#include <vector>

namespace envlock::node {

using NvmlDevice = struct NvmlDeviceOpaque*;

// nvmlReturn_t values node tells apart.
inline constexpr int k_nvml_success = 0;
inline constexpr int k_nvml_invalid_argument = 2;
inline constexpr int k_nvml_not_supported = 3;
inline constexpr int k_nvml_insufficient_size = 7;
inline constexpr int k_nvml_corrupted_inforom = 14;
inline constexpr int k_nvml_gpu_is_lost = 15;

// nvmlPciInfo_t
struct NvmlPciInfo {
  char bus_id_legacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;
  unsigned pci_subsystem_id;
  char bus_id[32];
};

// nvmlProcessInfo_t (v2, the layout of the _v3 calls)
struct NvmlProcessInfo {
  unsigned pid;
  unsigned long long used_gpu_memory;
  unsigned gpu_instance_id;
  unsigned compute_instance_id;
};

// nvmlGpuFabricInfo_t (nvmlDeviceGetGpuFabricInfo)
struct NvmlFabricInfo {
  unsigned char cluster_uuid[16];
  int status;
  unsigned clique_id;
  unsigned char state;
};

// nvmlGpuFabricInfo_v3_t (nvmlDeviceGetGpuFabricInfoV); `version` is k_nvml_fabric_info_v3.
struct NvmlFabricInfoV3 {
  unsigned version;
  unsigned char cluster_uuid[16];
  int status;
  unsigned clique_id;
  unsigned char state;
  unsigned health_mask;
  unsigned char health_summary;
};

// nvmlTemperature_v1_t (nvmlDeviceGetTemperatureV); `version` is k_nvml_temperature_v1.
struct NvmlTemperature {
  unsigned version;
  int sensor_type;
  int temperature;
};

inline constexpr unsigned k_nvml_temperature_v1 =
    static_cast<unsigned>(sizeof(NvmlTemperature)) | (1U << 24U);

// NVML_STRUCT_VERSION(GpuFabricInfo, 3): the structure's size with the version in the top byte.
inline constexpr unsigned k_nvml_fabric_info_v3 =
    static_cast<unsigned>(sizeof(NvmlFabricInfoV3)) | (3U << 24U);

// The functions. The first group is required (the GPU inventory); the others are null when this
// NVML lacks them (an older driver), and the facts they give say so.
struct NvmlApi {
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*count)(unsigned*) = nullptr;
  int (*handle)(unsigned, NvmlDevice*) = nullptr;
  int (*name)(NvmlDevice, char*, unsigned) = nullptr;
  int (*uuid)(NvmlDevice, char*, unsigned) = nullptr;
  int (*vbios)(NvmlDevice, char*, unsigned) = nullptr;
  int (*driver)(char*, unsigned) = nullptr;
  const char* (*error)(int) = nullptr;

  int (*pci_info)(NvmlDevice, NvmlPciInfo*) = nullptr;
  int (*ecc_mode)(NvmlDevice, int*, int*) = nullptr;
  int (*total_ecc)(NvmlDevice, int, int, unsigned long long*) = nullptr;
  int (*remapped_rows)(NvmlDevice, unsigned*, unsigned*, unsigned*, unsigned*) = nullptr;
  int (*retired_pages)(NvmlDevice, int, unsigned*, unsigned long long*) = nullptr;
  int (*retired_pending)(NvmlDevice, int*) = nullptr;
  int (*clocks_event_reasons)(NvmlDevice, unsigned long long*) = nullptr;
  int (*temperature)(NvmlDevice, int, unsigned*) = nullptr;
  int (*temperature_v)(NvmlDevice, NvmlTemperature*) = nullptr;
  int (*temperature_threshold)(NvmlDevice, int, unsigned*) = nullptr;
  int (*power_usage)(NvmlDevice, unsigned*) = nullptr;
  int (*power_limit)(NvmlDevice, unsigned*) = nullptr;
  int (*pcie_gen)(NvmlDevice, unsigned*) = nullptr;
  int (*pcie_max_gen)(NvmlDevice, unsigned*) = nullptr;
  int (*pcie_gpu_max_gen)(NvmlDevice, unsigned*) = nullptr;
  int (*pcie_width)(NvmlDevice, unsigned*) = nullptr;
  int (*pcie_max_width)(NvmlDevice, unsigned*) = nullptr;
  int (*pcie_replays)(NvmlDevice, unsigned*) = nullptr;
  int (*nvlink_state)(NvmlDevice, unsigned, int*) = nullptr;
  int (*fabric_info_v)(NvmlDevice, NvmlFabricInfoV3*) = nullptr;
  int (*fabric_info)(NvmlDevice, NvmlFabricInfo*) = nullptr;
  int (*persistence)(NvmlDevice, int*) = nullptr;
  int (*mig_mode)(NvmlDevice, unsigned*, unsigned*) = nullptr;
  int (*compute_mode)(NvmlDevice, int*) = nullptr;
  int (*compute_processes)(NvmlDevice, unsigned*, NvmlProcessInfo*) = nullptr;
  int (*graphics_processes)(NvmlDevice, unsigned*, NvmlProcessInfo*) = nullptr;
  int (*validate_inforom)(NvmlDevice) = nullptr;
  int (*clock_info)(NvmlDevice, int, unsigned*) = nullptr; // nvmlDeviceGetClockInfo
  int (*serial)(NvmlDevice, char*, unsigned) = nullptr;    // nvmlDeviceGetSerial
};

// NVML loaded and initialised; shut down by close() or, failing that, the destructor.
class NvmlSession {
public:
  // Loads the first of `names` that loads, binds the functions and calls nvmlInit_v2. An
  // environment error names what failed: "libnvidia-ml.so.1 not found", "LIB: symbol S not
  // found", "nvmlInit_v2: NVML error 9 (Driver Not Loaded)".
  static Result<NvmlSession> open(const std::vector<std::string>& names);

  NvmlSession(NvmlSession&& other) noexcept;
  NvmlSession& operator=(NvmlSession&&) = delete;
  NvmlSession(const NvmlSession&) = delete;
  NvmlSession& operator=(const NvmlSession&) = delete;
  ~NvmlSession();

  [[nodiscard]] const NvmlApi& api() const { return m_api; }
  // The name the library was opened by ("libnvidia-ml.so.1" or a path).
  [[nodiscard]] const std::string& library() const { return m_library.name(); }
  // "CALL: NVML error RC (TEXT)", TEXT from nvmlErrorString.
  [[nodiscard]] std::string error_text(const char* call, int rc) const;
  // Calls nvmlShutdown once; an environment error when it fails.
  Status close();

private:
  NvmlSession(util::DlHandle library, NvmlApi api);

  util::DlHandle m_library;
  NvmlApi m_api;
  bool m_open = false;
};

// The NVML call a reader thread is about to make (a string literal), so that a reader whose call
// never returns can be named when its deadline passes: read_gpus() gives each of its threads a
// slot; nvml_calling() on a thread without one does nothing.
void nvml_calling(const char* call);
void set_nvml_call_slot(std::atomic<const char*>* slot);

// Whether a reader thread was left inside an NVML call that outlived its deadline. The process
// must then end with _exit once its output is written (cli/node.cpp): a thread stuck in NVML
// cannot be joined, and the library's destructors must not run beneath it.
bool nvml_abandoned();
void mark_nvml_abandoned();

} // namespace envlock::node
