#include "verify/gpu/cuda_raii.hpp"

#include <string>

namespace envlock::verify::cuda {

Result<PrimaryContext> PrimaryContext::open(const Api& api, CuDevice device) {
  CuContext context = nullptr;
  ENVLOCK_TRY(check(api, api.primary_ctx_retain(&context, device), "cuDevicePrimaryCtxRetain"));
  PrimaryContext owner(&api, device, context);
  ENVLOCK_TRY(owner.make_current());
  return owner;
}

Status PrimaryContext::make_current() const {
  return check(*m_api, m_api->ctx_set_current(m_context), "cuCtxSetCurrent");
}

PrimaryContext::~PrimaryContext() {
  if (m_api != nullptr) {
    static_cast<void>(m_api->ctx_set_current(nullptr));
    static_cast<void>(m_api->primary_ctx_release(m_device));
  }
}

Result<DeviceBuffer> DeviceBuffer::allocate(const Api& api, std::size_t bytes) {
  DeviceBuffer buffer;
  const std::string what = "cuMemAlloc(" + std::to_string(bytes) + " bytes)";
  ENVLOCK_TRY(check(api, api.mem_alloc(&buffer.m_ptr, bytes), what.c_str()));
  buffer.m_api = &api;
  buffer.m_bytes = bytes;
  return buffer;
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    if (m_api != nullptr && m_ptr != 0) {
      static_cast<void>(m_api->mem_free(m_ptr));
    }
    m_api = std::exchange(other.m_api, nullptr);
    m_ptr = std::exchange(other.m_ptr, 0);
    m_bytes = other.m_bytes;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (m_api != nullptr && m_ptr != 0) {
    static_cast<void>(m_api->mem_free(m_ptr));
  }
}

Result<HostBuffer> HostBuffer::allocate(const Api& api, std::size_t bytes) {
  void* ptr = nullptr;
  const std::string what = "cuMemHostAlloc(" + std::to_string(bytes) + " bytes)";
  ENVLOCK_TRY(check(api, api.mem_host_alloc(&ptr, bytes, k_host_alloc_portable), what.c_str()));
  return HostBuffer(&api, ptr, bytes);
}

HostBuffer::~HostBuffer() {
  if (m_api != nullptr && m_ptr != nullptr) {
    static_cast<void>(m_api->mem_free_host(m_ptr));
  }
}

Result<Stream> Stream::create(const Api& api) {
  Stream stream;
  ENVLOCK_TRY(
      check(api, api.stream_create(&stream.m_stream, k_stream_non_blocking), "cuStreamCreate"));
  stream.m_api = &api;
  return stream;
}

Stream::~Stream() {
  if (m_api != nullptr && m_stream != nullptr) {
    static_cast<void>(m_api->stream_destroy(m_stream));
  }
}

Result<Event> Event::create(const Api& api) {
  CuEvent event = nullptr;
  ENVLOCK_TRY(check(api, api.event_create(&event, 0), "cuEventCreate"));
  return Event(&api, event);
}

Event::~Event() {
  if (m_api != nullptr && m_event != nullptr) {
    static_cast<void>(m_api->event_destroy(m_event));
  }
}

Result<Module> Module::load(const Api& api, const void* image) {
  CuModule module = nullptr;
  ENVLOCK_TRY(check(api, api.module_load_data(&module, image), "cuModuleLoadData"));
  return Module(&api, module);
}

Module::~Module() {
  if (m_api != nullptr && m_module != nullptr) {
    static_cast<void>(m_api->module_unload(m_module));
  }
}

Result<CuFunction> Module::function(const char* name) const {
  CuFunction function = nullptr;
  const std::string what = std::string("cuModuleGetFunction(") + name + ")";
  ENVLOCK_TRY(check(*m_api, m_api->module_get_function(&function, m_module, name), what.c_str()));
  return function;
}

Result<double> elapsed_seconds(const Api& api, const Event& start, const Event& stop) {
  ENVLOCK_TRY(check(api, api.event_synchronize(stop.get()), "cuEventSynchronize"));
  float milliseconds = 0;
  ENVLOCK_TRY(check(api, api.event_elapsed_time(&milliseconds, start.get(), stop.get()),
                    "cuEventElapsedTime"));
  return static_cast<double>(milliseconds) / 1000.0;
}

} // namespace envlock::verify::cuda
