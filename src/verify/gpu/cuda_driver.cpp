#include "verify/gpu/cuda_driver.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace envlock::verify::cuda {

namespace {

Status resolve_all(const util::DlHandle& lib, Api& api) {
  ENVLOCK_TRY(util::dl_bind(lib, api.init, "cuInit"));
  ENVLOCK_TRY(util::dl_bind(lib, api.driver_get_version, "cuDriverGetVersion"));
  ENVLOCK_TRY(util::dl_bind(lib, api.device_get_count, "cuDeviceGetCount"));
  ENVLOCK_TRY(util::dl_bind(lib, api.device_get, "cuDeviceGet"));
  ENVLOCK_TRY(util::dl_bind(lib, api.device_get_name, "cuDeviceGetName"));
  ENVLOCK_TRY(util::dl_bind(lib, api.device_get_uuid, "cuDeviceGetUuid_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.device_total_mem, "cuDeviceTotalMem_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.device_get_attribute, "cuDeviceGetAttribute"));
  ENVLOCK_TRY(util::dl_bind(lib, api.primary_ctx_retain, "cuDevicePrimaryCtxRetain"));
  ENVLOCK_TRY(util::dl_bind(lib, api.primary_ctx_release, "cuDevicePrimaryCtxRelease_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.ctx_set_current, "cuCtxSetCurrent"));
  ENVLOCK_TRY(util::dl_bind(lib, api.module_load_data, "cuModuleLoadData"));
  ENVLOCK_TRY(util::dl_bind(lib, api.module_unload, "cuModuleUnload"));
  ENVLOCK_TRY(util::dl_bind(lib, api.module_get_function, "cuModuleGetFunction"));
  ENVLOCK_TRY(util::dl_bind(lib, api.launch_kernel, "cuLaunchKernel"));
  ENVLOCK_TRY(util::dl_bind(lib, api.mem_alloc, "cuMemAlloc_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.mem_free, "cuMemFree_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.memcpy_htod, "cuMemcpyHtoD_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.memcpy_dtoh, "cuMemcpyDtoH_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.memset_d32, "cuMemsetD32_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.memset_d32_async, "cuMemsetD32Async"));
  ENVLOCK_TRY(util::dl_bind(lib, api.stream_create, "cuStreamCreate"));
  ENVLOCK_TRY(util::dl_bind(lib, api.stream_destroy, "cuStreamDestroy_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.stream_synchronize, "cuStreamSynchronize"));
  ENVLOCK_TRY(util::dl_bind(lib, api.event_create, "cuEventCreate"));
  ENVLOCK_TRY(util::dl_bind(lib, api.event_destroy, "cuEventDestroy_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.event_record, "cuEventRecord"));
  ENVLOCK_TRY(util::dl_bind(lib, api.event_synchronize, "cuEventSynchronize"));
  ENVLOCK_TRY(util::dl_bind(lib, api.event_elapsed_time, "cuEventElapsedTime"));
  ENVLOCK_TRY(util::dl_bind(lib, api.device_can_access_peer, "cuDeviceCanAccessPeer"));
  ENVLOCK_TRY(util::dl_bind(lib, api.device_get_p2p_attribute, "cuDeviceGetP2PAttribute"));
  ENVLOCK_TRY(util::dl_bind(lib, api.device_get_pci_bus_id, "cuDeviceGetPCIBusId"));
  ENVLOCK_TRY(util::dl_bind(lib, api.ctx_enable_peer_access, "cuCtxEnablePeerAccess"));
  ENVLOCK_TRY(util::dl_bind(lib, api.ctx_disable_peer_access, "cuCtxDisablePeerAccess"));
  ENVLOCK_TRY(util::dl_bind(lib, api.memcpy_peer_async, "cuMemcpyPeerAsync"));
  ENVLOCK_TRY(util::dl_bind(lib, api.memcpy_htod_async, "cuMemcpyHtoDAsync_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.memcpy_dtoh_async, "cuMemcpyDtoHAsync_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, api.mem_host_alloc, "cuMemHostAlloc"));
  ENVLOCK_TRY(util::dl_bind(lib, api.mem_free_host, "cuMemFreeHost"));
  ENVLOCK_TRY(util::dl_bind(lib, api.get_error_string, "cuGetErrorString"));
  ENVLOCK_TRY(util::dl_bind(lib, api.get_error_name, "cuGetErrorName"));
  return {};
}

} // namespace

Result<Driver> load_driver() {
  auto library = util::dl_open({"libcuda.so.1"});
  if (!library) {
    return env_error("no NVIDIA driver: " + library.error().message);
  }
  Driver driver;
  driver.library = std::move(library).value();
  ENVLOCK_TRY(resolve_all(driver.library, driver.api));
  driver.path = util::dl_path(driver.library);
  return driver;
}

Status check(const Api& api, CuResult status, const char* what) {
  if (status == 0) {
    return {};
  }
  const char* text = nullptr;
  const char* name = nullptr;
  if (api.get_error_string == nullptr || api.get_error_string(status, &text) != 0 ||
      text == nullptr) {
    text = "unknown error";
  }
  if (api.get_error_name == nullptr || api.get_error_name(status, &name) != 0 || name == nullptr) {
    return env_error(std::string(what) + ": " + text + " (CUresult " + std::to_string(status) +
                     ")");
  }
  return env_error(std::string(what) + ": " + text + " (" + name + ")");
}

std::string version_string(int code) {
  return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10);
}

std::string uuid_string(const CuUuid& uuid) {
  static constexpr std::array<int, 4> k_dashes_after = {3, 5, 7, 9};
  static constexpr std::string_view k_hex = "0123456789abcdef";
  std::string text = "GPU-";
  int index = 0;
  for (const unsigned char byte : uuid.bytes) {
    text += k_hex[byte >> 4U];
    text += k_hex[byte & 0xFU];
    if (std::find(k_dashes_after.begin(), k_dashes_after.end(), index) != k_dashes_after.end()) {
      text += '-';
    }
    ++index;
  }
  return text;
}

} // namespace envlock::verify::cuda
