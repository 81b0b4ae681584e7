#include "node/nvml.hpp"

#include "util/strings.hpp"

#include <cstring>
#include <utility>

namespace envlock::node {

namespace {

thread_local std::atomic<const char*>* t_call_slot = nullptr;
std::atomic<bool> g_abandoned{false};

// Binds `slot` when the library has `symbol`; leaves it null otherwise.
template <typename T> void bind_if_present(const util::DlHandle& lib, T& slot, const char* symbol) {
  if (auto bound = util::dl_sym<T>(lib, symbol)) {
    slot = *bound;
  }
}

Result<NvmlApi> bind_nvml(const util::DlHandle& lib) {
  NvmlApi n;
  ENVLOCK_TRY(util::dl_bind(lib, n.init, "nvmlInit_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, n.shutdown, "nvmlShutdown"));
  ENVLOCK_TRY(util::dl_bind(lib, n.count, "nvmlDeviceGetCount_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, n.handle, "nvmlDeviceGetHandleByIndex_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, n.name, "nvmlDeviceGetName"));
  ENVLOCK_TRY(util::dl_bind(lib, n.uuid, "nvmlDeviceGetUUID"));
  ENVLOCK_TRY(util::dl_bind(lib, n.vbios, "nvmlDeviceGetVbiosVersion"));
  ENVLOCK_TRY(util::dl_bind(lib, n.driver, "nvmlSystemGetDriverVersion"));
  ENVLOCK_TRY(util::dl_bind(lib, n.error, "nvmlErrorString"));
  bind_if_present(lib, n.pci_info, "nvmlDeviceGetPciInfo_v3");
  bind_if_present(lib, n.ecc_mode, "nvmlDeviceGetEccMode");
  bind_if_present(lib, n.total_ecc, "nvmlDeviceGetTotalEccErrors");
  bind_if_present(lib, n.remapped_rows, "nvmlDeviceGetRemappedRows");
  bind_if_present(lib, n.retired_pages, "nvmlDeviceGetRetiredPages");
  bind_if_present(lib, n.retired_pending, "nvmlDeviceGetRetiredPagesPendingStatus");
  bind_if_present(lib, n.clocks_event_reasons, "nvmlDeviceGetCurrentClocksEventReasons");
  if (n.clocks_event_reasons == nullptr) {
    bind_if_present(lib, n.clocks_event_reasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  }
  bind_if_present(lib, n.temperature, "nvmlDeviceGetTemperature");
  bind_if_present(lib, n.temperature_v, "nvmlDeviceGetTemperatureV");
  bind_if_present(lib, n.temperature_threshold, "nvmlDeviceGetTemperatureThreshold");
  bind_if_present(lib, n.power_usage, "nvmlDeviceGetPowerUsage");
  bind_if_present(lib, n.power_limit, "nvmlDeviceGetEnforcedPowerLimit");
  bind_if_present(lib, n.pcie_gen, "nvmlDeviceGetCurrPcieLinkGeneration");
  bind_if_present(lib, n.pcie_max_gen, "nvmlDeviceGetMaxPcieLinkGeneration");
  bind_if_present(lib, n.pcie_gpu_max_gen, "nvmlDeviceGetGpuMaxPcieLinkGeneration");
  bind_if_present(lib, n.pcie_width, "nvmlDeviceGetCurrPcieLinkWidth");
  bind_if_present(lib, n.pcie_max_width, "nvmlDeviceGetMaxPcieLinkWidth");
  bind_if_present(lib, n.pcie_replays, "nvmlDeviceGetPcieReplayCounter");
  bind_if_present(lib, n.nvlink_state, "nvmlDeviceGetNvLinkState");
  bind_if_present(lib, n.fabric_info_v, "nvmlDeviceGetGpuFabricInfoV");
  bind_if_present(lib, n.fabric_info, "nvmlDeviceGetGpuFabricInfo");
  bind_if_present(lib, n.persistence, "nvmlDeviceGetPersistenceMode");
  bind_if_present(lib, n.mig_mode, "nvmlDeviceGetMigMode");
  bind_if_present(lib, n.compute_mode, "nvmlDeviceGetComputeMode");
  bind_if_present(lib, n.compute_processes, "nvmlDeviceGetComputeRunningProcesses_v3");
  bind_if_present(lib, n.graphics_processes, "nvmlDeviceGetGraphicsRunningProcesses_v3");
  bind_if_present(lib, n.validate_inforom, "nvmlDeviceValidateInforom");
  bind_if_present(lib, n.clock_info, "nvmlDeviceGetClockInfo");
  bind_if_present(lib, n.serial, "nvmlDeviceGetSerial");
  return n;
}

} // namespace

void nvml_calling(const char* call) {
  if (t_call_slot != nullptr) {
    t_call_slot->store(call);
  }
}

void set_nvml_call_slot(std::atomic<const char*>* slot) {
  t_call_slot = slot;
}

bool nvml_abandoned() {
  return g_abandoned.load();
}

void mark_nvml_abandoned() {
  g_abandoned.store(true);
}

NvmlSession::NvmlSession(util::DlHandle library, NvmlApi api)
    : m_library(std::move(library)), m_api(api), m_open(true) {}

NvmlSession::NvmlSession(NvmlSession&& other) noexcept
    : m_library(std::move(other.m_library)), m_api(other.m_api),
      m_open(std::exchange(other.m_open, false)) {}

NvmlSession::~NvmlSession() {
  if (m_open) {
    (void)m_api.shutdown();
  }
}

Result<NvmlSession> NvmlSession::open(const std::vector<std::string>& names) {
  ENVLOCK_TRY_ASSIGN(util::DlHandle lib, util::dl_open(names));
  ENVLOCK_TRY_ASSIGN(const NvmlApi api, bind_nvml(lib));
  nvml_calling("nvmlInit_v2");
  if (const int rc = api.init(); rc != k_nvml_success) {
    const char* text = api.error(rc);
    return env_error(
        "nvmlInit_v2: NVML error " + std::to_string(rc) +
        (text == nullptr
             ? ""
             : " (" + util::escape_invalid_utf8(std::string_view(text, ::strnlen(text, 128))) +
                   ")"));
  }
  return NvmlSession(std::move(lib), api);
}

std::string NvmlSession::error_text(const char* call, int rc) const {
  const char* text = m_api.error(rc);
  // NVML's text is read as far as 128 bytes and kept valid UTF-8, whatever it holds.
  return std::string(call) + ": NVML error " + std::to_string(rc) +
         (text == nullptr
              ? ""
              : " (" + util::escape_invalid_utf8(std::string_view(text, ::strnlen(text, 128))) +
                    ")");
}

Status NvmlSession::close() {
  if (!m_open) {
    return {};
  }
  m_open = false;
  nvml_calling("nvmlShutdown");
  if (const int rc = m_api.shutdown(); rc != k_nvml_success) {
    return env_error(error_text("nvmlShutdown", rc));
  }
  return {};
}

} // namespace envlock::node
