// The libcuda.so.1 stand-in (standin.hpp): GPUs whose memory is this process's, whose streams keep
// a clock that each operation advances by its size over the scenario's bandwidth, and whose
// kernels are the smoke kernels computed on the CPU.
#include "../../../src/verify/gpu/known_answer.hpp"
#include "standin.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <sys/mman.h>

using envlock::standin::log;
using envlock::standin::scenario;

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long; // NOLINT(google-runtime-int)

constexpr CUresult k_success = 0;
constexpr CUresult k_invalid_value = 1;
constexpr CUresult k_out_of_memory = 2;
constexpr CUresult k_not_initialized = 3;
constexpr CUresult k_invalid_device = 101;
constexpr CUresult k_invalid_context = 201;
constexpr CUresult k_peer_unsupported = 217;
constexpr CUresult k_not_found = 500;
constexpr CUresult k_already_enabled = 704;
constexpr CUresult k_not_enabled = 705;
constexpr CUresult k_launch_failed = 719;

struct Context {
  int gpu = 0;
  int retained = 0;
};
struct Stream {
  int gpu = 0;
  double clock = 0; // seconds of work enqueued
};
struct Event {
  double time = 0;
};
struct Function {
  std::string name;
};
struct Module {
  int gpu = 0;
  Function known_answer{"envlock_known_answer"};
  Function copy{"envlock_copy"};
  Function fill_bf16{"envlock_fill_bf16"};
  Function sdc_fold{"envlock_sdc_fold"};
};

std::mutex g_mutex;
bool g_initialized = false;
std::vector<Context> g_contexts;
std::vector<Stream> g_null_streams; // the legacy stream of each GPU
std::set<std::pair<int, int>> g_enabled;
std::map<std::string, int> g_calls;
std::map<CUdeviceptr, std::size_t> g_allocations;
thread_local Context* t_current = nullptr;

// Whether this call of `name` is the one the scenario fails.
bool injected(const std::string& name) {
  const int call = ++g_calls[name];
  const auto found = scenario().fail_at.find(name);
  return found != scenario().fail_at.end() && found->second == call;
}

Stream* stream_of(void* stream) {
  if (stream != nullptr) {
    return static_cast<Stream*>(stream);
  }
  return t_current != nullptr ? &g_null_streams[static_cast<std::size_t>(t_current->gpu)] : nullptr;
}

double seconds_for(std::size_t bytes, double gbps) {
  return static_cast<double>(bytes) / (gbps * 1e9);
}

void* as_pointer(CUdeviceptr ptr) {
  return reinterpret_cast<void*>(ptr); // NOLINT: device memory is this process's here
}

} // namespace

extern "C" {

int envlock_standin_current_gpu() {
  return t_current != nullptr ? t_current->gpu : -1;
}

void envlock_standin_advance(void* stream, double seconds) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (Stream* s = stream_of(stream)) {
    s->clock += seconds;
  }
}

CUresult cuInit(unsigned /*flags*/) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_initialized) {
    g_initialized = true;
    const auto gpus = static_cast<std::size_t>(scenario().gpus);
    g_contexts.resize(gpus);
    g_null_streams.resize(gpus);
    for (std::size_t i = 0; i < gpus; ++i) {
      g_contexts[i].gpu = g_null_streams[i].gpu = static_cast<int>(i);
    }
  }
  log("cuInit");
  return k_success;
}

CUresult cuDriverGetVersion(int* version) {
  *version = 13000;
  return k_success;
}

CUresult cuDeviceGetCount(int* count) {
  if (!g_initialized) {
    return k_not_initialized;
  }
  *count = scenario().gpus;
  return k_success;
}

CUresult cuDeviceGet(int* device, int ordinal) {
  if (ordinal < 0 || ordinal >= scenario().gpus) {
    return k_invalid_device;
  }
  *device = ordinal;
  return k_success;
}

CUresult cuDeviceGetName(char* name, int length, int /*device*/) {
  std::snprintf(name, static_cast<std::size_t>(length), "%s", scenario().name.c_str());
  return k_success;
}

CUresult cuDeviceGetUuid_v2(unsigned char* uuid, int device) {
  for (int i = 0; i < 16; ++i) {
    uuid[i] = static_cast<unsigned char>(i == 15 ? device : 0x10 + i);
  }
  return k_success;
}

CUresult cuDeviceTotalMem_v2(std::size_t* bytes, int /*device*/) {
  *bytes = std::size_t{80} << 30;
  return k_success;
}

CUresult cuDeviceGetAttribute(int* value, int attribute, int /*device*/) {
  *value = attribute == 16 ? 132 : attribute == 75 ? 9 : 0;
  return k_success;
}

CUresult cuDevicePrimaryCtxRetain(Context** context, int device) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_initialized) {
    return k_not_initialized;
  }
  if (device < 0 || device >= scenario().gpus) {
    return k_invalid_device;
  }
  Context& c = g_contexts[static_cast<std::size_t>(device)];
  ++c.retained;
  *context = &c;
  return k_success;
}

CUresult cuDevicePrimaryCtxRelease_v2(int device) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  Context& c = g_contexts.at(static_cast<std::size_t>(device));
  if (c.retained == 0) {
    return k_invalid_context;
  }
  --c.retained;
  return k_success;
}

CUresult cuCtxSetCurrent(Context* context) {
  t_current = context;
  return k_success;
}

CUresult cuModuleLoadData(Module** module, const void* /*image*/) {
  if (t_current == nullptr) {
    return k_invalid_context;
  }
  *module = new Module{t_current->gpu}; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

CUresult cuModuleUnload(Module* module) {
  delete module; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

CUresult cuModuleGetFunction(Function** function, Module* module, const char* name) {
  for (Function* f :
       {&module->known_answer, &module->copy, &module->fill_bf16, &module->sdc_fold}) {
    if (f->name == name) {
      *function = f;
      return k_success;
    }
  }
  return k_not_found;
}

CUresult cuLaunchKernel(Function* f, unsigned /*gx*/, unsigned /*gy*/, unsigned /*gz*/,
                        unsigned /*bx*/, unsigned /*by*/, unsigned /*bz*/, unsigned /*shared*/,
                        void* stream, void** params, void** /*extra*/) {
  if (t_current == nullptr) {
    return k_invalid_context;
  }
  const int gpu = t_current->gpu;
  log("launch " + f->name + " gpu " + std::to_string(gpu));
  Stream* s = stream_of(stream);
  // The kernels write their own buffers: computed outside the lock, their time added under it.
  double seconds = 0;
  namespace known = envlock::verify::known;
  if (f->name == "envlock_known_answer") {
    auto* out = static_cast<std::uint32_t*>(as_pointer(*static_cast<CUdeviceptr*>(params[0])));
    const std::uint32_t n = *static_cast<std::uint32_t*>(params[1]);
    for (std::uint32_t i = 0; i < n; ++i) {
      out[i] = known::known_answer(i);
    }
    if (scenario().wrong_answer.count(gpu) && n > 7) {
      out[7] ^= 1U;
    }
    seconds = seconds_for(std::size_t{n} * 4, scenario().hbm_gbps);
  } else if (f->name == "envlock_copy") {
    const CUdeviceptr src = *static_cast<CUdeviceptr*>(params[0]);
    const CUdeviceptr dst = *static_cast<CUdeviceptr*>(params[1]);
    const std::uint64_t vectors = *static_cast<std::uint64_t*>(params[2]);
    envlock::standin::copy_bytes(as_pointer(dst), as_pointer(src), vectors * 16);
    seconds = seconds_for(vectors * 32, scenario().hbm_gbps);
  } else if (f->name == "envlock_sdc_fold") {
    const auto* d = static_cast<const float*>(as_pointer(*static_cast<CUdeviceptr*>(params[0])));
    auto* x = static_cast<std::uint16_t*>(as_pointer(*static_cast<CUdeviceptr*>(params[1])));
    const std::uint64_t n = *static_cast<std::uint64_t*>(params[2]);
    envlock::standin::each_touched(n, 2, [&](std::size_t i) { x[i] = known::sdc_fold_bits(d[i]); });
    seconds = seconds_for(n * 6, scenario().hbm_gbps);
  } else {
    auto* out = static_cast<std::uint16_t*>(as_pointer(*static_cast<CUdeviceptr*>(params[0])));
    const std::uint32_t seed = *static_cast<std::uint32_t*>(params[1]);
    const std::uint64_t n = *static_cast<std::uint64_t*>(params[2]);
    envlock::standin::each_touched(n, 2, [&](std::size_t i) {
      out[i] = known::gemm_input_bits(seed, static_cast<std::uint32_t>(i));
    });
    seconds = seconds_for(n * 2, scenario().hbm_gbps);
  }
  const std::lock_guard<std::mutex> lock(g_mutex);
  s->clock += seconds;
  return k_success;
}

CUresult cuMemAlloc_v2(CUdeviceptr* ptr, std::size_t bytes) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (t_current == nullptr) {
    return k_invalid_context;
  }
  // Reserved, not committed: pages cost memory only where an operation touches them.
  void* memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) {
    return k_out_of_memory;
  }
  *ptr = reinterpret_cast<CUdeviceptr>(memory); // NOLINT
  g_allocations[*ptr] = bytes;
  return k_success;
}

CUresult cuMemFree_v2(CUdeviceptr ptr) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  const auto found = g_allocations.find(ptr);
  if (found == g_allocations.end()) {
    return k_invalid_value;
  }
  ::munmap(as_pointer(ptr), found->second);
  g_allocations.erase(found);
  return k_success;
}

CUresult cuMemHostAlloc(void** ptr, std::size_t bytes, unsigned /*flags*/) {
  CUdeviceptr address = 0;
  const CUresult status = cuMemAlloc_v2(&address, bytes);
  *ptr = as_pointer(address);
  return status;
}

CUresult cuMemFreeHost(void* ptr) {
  return cuMemFree_v2(reinterpret_cast<CUdeviceptr>(ptr)); // NOLINT
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, std::size_t bytes) {
  envlock::standin::copy_bytes(as_pointer(dst), src, bytes);
  return k_success;
}

CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, std::size_t bytes) {
  envlock::standin::copy_bytes(dst, as_pointer(src), bytes);
  return k_success;
}

CUresult cuMemsetD32Async(CUdeviceptr ptr, unsigned value, std::size_t count, void* stream) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  auto* words = static_cast<std::uint32_t*>(as_pointer(ptr));
  envlock::standin::each_touched(count, 4, [&](std::size_t i) { words[i] = value; });
  if (Stream* s = stream_of(stream)) {
    s->clock += seconds_for(count * 4, scenario().hbm_gbps);
  }
  return k_success;
}

CUresult cuMemsetD32_v2(CUdeviceptr ptr, unsigned value, std::size_t count) {
  return cuMemsetD32Async(ptr, value, count, nullptr);
}

CUresult cuStreamCreate(Stream** stream, unsigned /*flags*/) {
  if (t_current == nullptr) {
    return k_invalid_context;
  }
  *stream = new Stream{t_current->gpu}; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

CUresult cuStreamDestroy_v2(Stream* stream) {
  delete stream; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

CUresult cuStreamSynchronize(void* /*stream*/) {
  return k_success;
}

CUresult cuEventCreate(Event** event, unsigned /*flags*/) {
  if (t_current == nullptr) {
    return k_invalid_context;
  }
  *event = new Event{}; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

CUresult cuEventDestroy_v2(Event* event) {
  delete event; // NOLINT(cppcoreguidelines-owning-memory)
  return k_success;
}

CUresult cuEventRecord(Event* event, void* stream) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  Stream* s = stream_of(stream);
  if (s == nullptr) {
    return k_invalid_context;
  }
  log("cuEventRecord gpu " + std::to_string(s->gpu));
  event->time = s->clock;
  return k_success;
}

CUresult cuEventSynchronize(Event* /*event*/) {
  return k_success;
}

CUresult cuEventElapsedTime(float* ms, Event* start, Event* stop) {
  *ms = static_cast<float>((stop->time - start->time) * 1000.0);
  return k_success;
}

CUresult cuDeviceCanAccessPeer(int* can, int device, int peer) {
  *can = scenario().can_access(device, peer) ? 1 : 0;
  return k_success;
}

CUresult cuDeviceGetP2PAttribute(int* value, int attribute, int from, int to) {
  const auto found = scenario().rank.find({from, to});
  *value = attribute == 1 && found != scenario().rank.end() ? found->second : 0;
  return k_success;
}

CUresult cuDeviceGetPCIBusId(char* text, int length, int device) {
  std::snprintf(text, static_cast<std::size_t>(length), "00000000:%02X:00.0", 0x18 + device);
  return k_success;
}

CUresult cuCtxEnablePeerAccess(Context* peer, unsigned /*flags*/) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (t_current == nullptr || peer == t_current) {
    return k_invalid_context;
  }
  if (!scenario().can_access(t_current->gpu, peer->gpu)) {
    return k_peer_unsupported;
  }
  if (!g_enabled.insert({t_current->gpu, peer->gpu}).second) {
    return k_already_enabled;
  }
  log("peer enable " + std::to_string(t_current->gpu) + " " + std::to_string(peer->gpu));
  return k_success;
}

CUresult cuCtxDisablePeerAccess(Context* peer) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (t_current == nullptr) {
    return k_invalid_context;
  }
  if (g_enabled.erase({t_current->gpu, peer->gpu}) == 0) {
    return k_not_enabled;
  }
  log("peer disable " + std::to_string(t_current->gpu) + " " + std::to_string(peer->gpu));
  return k_success;
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dst, Context* dst_context, CUdeviceptr src,
                           Context* src_context, std::size_t bytes, void* stream) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (injected("cuMemcpyPeerAsync")) {
    return k_launch_failed;
  }
  Stream* s = stream_of(stream);
  envlock::standin::copy_bytes(as_pointer(dst), as_pointer(src), bytes);
  // The stream's GPU copies; it reaches the other directly only with access enabled.
  const int other = s->gpu == src_context->gpu ? dst_context->gpu : src_context->gpu;
  const bool direct = g_enabled.count({s->gpu, other}) != 0;
  s->clock += seconds_for(bytes, direct ? scenario().peer(src_context->gpu, dst_context->gpu)
                                        : scenario().staged_gbps);
  return k_success;
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void* src, std::size_t bytes, void* stream) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  Stream* s = stream_of(stream);
  envlock::standin::copy_bytes(as_pointer(dst), src, bytes);
  s->clock += seconds_for(bytes, scenario().h2d(s->gpu));
  return k_success;
}

CUresult cuMemcpyDtoHAsync_v2(void* dst, CUdeviceptr src, std::size_t bytes, void* stream) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  Stream* s = stream_of(stream);
  envlock::standin::copy_bytes(dst, as_pointer(src), bytes);
  s->clock += seconds_for(bytes, scenario().d2h(s->gpu));
  return k_success;
}

CUresult cuGetErrorString(CUresult status, const char** text) {
  static const std::map<CUresult, const char*> texts = {
      {k_invalid_value, "invalid argument"},
      {k_out_of_memory, "out of memory"},
      {k_not_initialized, "initialization error"},
      {k_invalid_device, "invalid device ordinal"},
      {k_invalid_context, "invalid device context"},
      {k_peer_unsupported, "peer access is not supported between these two devices"},
      {k_not_found, "named symbol not found"},
      {k_launch_failed, "unspecified launch failure"}};
  const auto found = texts.find(status);
  *text = found == texts.end() ? "unknown error" : found->second;
  return k_success;
}

CUresult cuGetErrorName(CUresult status, const char** name) {
  static const std::map<CUresult, const char*> names = {
      {k_invalid_value, "CUDA_ERROR_INVALID_VALUE"},
      {k_out_of_memory, "CUDA_ERROR_OUT_OF_MEMORY"},
      {k_not_initialized, "CUDA_ERROR_NOT_INITIALIZED"},
      {k_invalid_device, "CUDA_ERROR_INVALID_DEVICE"},
      {k_invalid_context, "CUDA_ERROR_INVALID_CONTEXT"},
      {k_peer_unsupported, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"},
      {k_not_found, "CUDA_ERROR_NOT_FOUND"},
      {k_launch_failed, "CUDA_ERROR_LAUNCH_FAILED"}};
  const auto found = names.find(status);
  *name = found == names.end() ? "CUDA_ERROR_UNKNOWN" : found->second;
  return k_success;
}

} // extern "C"
