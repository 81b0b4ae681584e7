// The CUDA driver API, loaded with dlopen("libcuda.so.1") so envlock-verify builds without CUDA
// headers and runs on machines without a driver. The few types and enum values used here are
// declared from the driver's documented ABI (cuda.h); every call's status is checked.
#pragma once

#include "util/dl.hpp"
#include "util/result.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace envlock::verify::cuda {

using CuResult = int; // CUresult; 0 is CUDA_SUCCESS
using CuDevice = int;
using CuDevicePtr = unsigned long long; // NOLINT(google-runtime-int): CUdeviceptr's ABI type
using CuContext = struct CuContextOpaque*;
using CuModule = struct CuModuleOpaque*;
using CuFunction = struct CuFunctionOpaque*;
using CuStream = struct CuStreamOpaque*;
using CuEvent = struct CuEventOpaque*;
struct CuUuid {
  unsigned char bytes[16]; // NOLINT(modernize-avoid-c-arrays): the ABI's layout
};

inline constexpr int k_attribute_sm_count = 16;      // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
inline constexpr int k_attribute_cc_major = 75;      // ..._COMPUTE_CAPABILITY_MAJOR
inline constexpr int k_attribute_cc_minor = 76;      // ..._COMPUTE_CAPABILITY_MINOR
inline constexpr unsigned k_stream_non_blocking = 1; // CU_STREAM_NON_BLOCKING
inline constexpr unsigned k_host_alloc_portable = 1; // CU_MEMHOSTALLOC_PORTABLE
inline constexpr int k_p2p_performance_rank = 1;     // CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK
inline constexpr CuResult k_error_peer_access_already_enabled = 704; // ..._ALREADY_ENABLED

// The driver's entry points used by the verifier, resolved once.
struct Api {
  CuResult (*init)(unsigned) = nullptr;
  CuResult (*driver_get_version)(int*) = nullptr;
  CuResult (*device_get_count)(int*) = nullptr;
  CuResult (*device_get)(CuDevice*, int) = nullptr;
  CuResult (*device_get_name)(char*, int, CuDevice) = nullptr;
  CuResult (*device_get_uuid)(CuUuid*, CuDevice) = nullptr;
  CuResult (*device_total_mem)(std::size_t*, CuDevice) = nullptr;
  CuResult (*device_get_attribute)(int*, int, CuDevice) = nullptr;
  CuResult (*primary_ctx_retain)(CuContext*, CuDevice) = nullptr;
  CuResult (*primary_ctx_release)(CuDevice) = nullptr;
  CuResult (*ctx_set_current)(CuContext) = nullptr;
  CuResult (*module_load_data)(CuModule*, const void*) = nullptr;
  CuResult (*module_unload)(CuModule) = nullptr;
  CuResult (*module_get_function)(CuFunction*, CuModule, const char*) = nullptr;
  CuResult (*launch_kernel)(CuFunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            unsigned, CuStream, void**, void**) = nullptr;
  CuResult (*mem_alloc)(CuDevicePtr*, std::size_t) = nullptr;
  CuResult (*mem_free)(CuDevicePtr) = nullptr;
  CuResult (*memcpy_htod)(CuDevicePtr, const void*, std::size_t) = nullptr;
  CuResult (*memcpy_dtoh)(void*, CuDevicePtr, std::size_t) = nullptr;
  CuResult (*memset_d32)(CuDevicePtr, unsigned, std::size_t) = nullptr;
  CuResult (*memset_d32_async)(CuDevicePtr, unsigned, std::size_t, CuStream) = nullptr;
  CuResult (*stream_create)(CuStream*, unsigned) = nullptr;
  CuResult (*stream_destroy)(CuStream) = nullptr;
  CuResult (*stream_synchronize)(CuStream) = nullptr;
  CuResult (*event_create)(CuEvent*, unsigned) = nullptr;
  CuResult (*event_destroy)(CuEvent) = nullptr;
  CuResult (*event_record)(CuEvent, CuStream) = nullptr;
  CuResult (*event_synchronize)(CuEvent) = nullptr;
  CuResult (*event_elapsed_time)(float*, CuEvent, CuEvent) = nullptr;
  CuResult (*device_can_access_peer)(int*, CuDevice, CuDevice) = nullptr;
  CuResult (*device_get_p2p_attribute)(int*, int, CuDevice, CuDevice) = nullptr;
  CuResult (*device_get_pci_bus_id)(char*, int, CuDevice) = nullptr;
  CuResult (*ctx_enable_peer_access)(CuContext, unsigned) = nullptr;
  CuResult (*ctx_disable_peer_access)(CuContext) = nullptr;
  CuResult (*memcpy_peer_async)(CuDevicePtr, CuContext, CuDevicePtr, CuContext, std::size_t,
                                CuStream) = nullptr;
  CuResult (*memcpy_htod_async)(CuDevicePtr, const void*, std::size_t, CuStream) = nullptr;
  CuResult (*memcpy_dtoh_async)(void*, CuDevicePtr, std::size_t, CuStream) = nullptr;
  CuResult (*mem_host_alloc)(void**, std::size_t, unsigned) = nullptr;
  CuResult (*mem_free_host)(void*) = nullptr;
  CuResult (*get_error_string)(CuResult, const char**) = nullptr;
  CuResult (*get_error_name)(CuResult, const char**) = nullptr;
};

// The loaded driver library and its entry points.
struct Driver {
  util::DlHandle library;
  Api api;
  std::string path; // the file libcuda.so.1 was loaded from
};

// Loads libcuda.so.1 and resolves every entry point. Fails (environment error) with
// "no NVIDIA driver: libcuda.so.1 not found" when the library is absent, or names the library
// and symbol that could not be resolved.
Result<Driver> load_driver();

// Turns a driver status into a Status: ok for CUDA_SUCCESS, otherwise an environment error
// "WHAT: <error string> (<error name>)", e.g. "cuMemAlloc: out of memory
// (CUDA_ERROR_OUT_OF_MEMORY)".
Status check(const Api& api, CuResult status, const char* what);

// The driver's version code (1000*major + 10*minor) as "MAJOR.MINOR", e.g. 13000 -> "13.0".
std::string version_string(int code);

// A device's UUID as nvidia-smi prints it: "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
std::string uuid_string(const CuUuid& uuid);

} // namespace envlock::verify::cuda
