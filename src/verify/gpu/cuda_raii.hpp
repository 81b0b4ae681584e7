// RAII owners for the CUDA driver objects the GPU checks create: the device's primary context
// (made current on the calling thread), device memory, streams, events and modules. Each
// constructor is a factory returning Result; destructors release and ignore the status (the
// process is tearing the object down either way).
#pragma once

#include "verify/gpu/cuda_driver.hpp"

#include <cstddef>
#include <utility>

namespace envlock::verify::cuda {

// Retains a device's primary context and makes it current on this thread.
class PrimaryContext {
public:
  // Fails with the driver's error for cuDevicePrimaryCtxRetain or cuCtxSetCurrent.
  static Result<PrimaryContext> open(const Api& api, CuDevice device);
  PrimaryContext(PrimaryContext&& other) noexcept
      : m_api(std::exchange(other.m_api, nullptr)), m_device(other.m_device),
        m_context(other.m_context) {}
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;
  PrimaryContext& operator=(PrimaryContext&&) = delete;
  ~PrimaryContext();

  // Makes this context current on the calling thread again.
  [[nodiscard]] Status make_current() const;
  [[nodiscard]] CuContext get() const { return m_context; }
  [[nodiscard]] CuDevice device() const { return m_device; }

private:
  PrimaryContext(const Api* api, CuDevice device, CuContext context)
      : m_api(api), m_device(device), m_context(context) {}
  const Api* m_api = nullptr;
  CuDevice m_device = 0;
  CuContext m_context = nullptr;
};

// Device memory of the current context.
class DeviceBuffer {
public:
  // Fails with "cuMemAlloc(N bytes): out of memory (CUDA_ERROR_OUT_OF_MEMORY)" and the like.
  static Result<DeviceBuffer> allocate(const Api& api, std::size_t bytes);
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : m_api(std::exchange(other.m_api, nullptr)), m_ptr(std::exchange(other.m_ptr, 0)),
        m_bytes(other.m_bytes) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();

  [[nodiscard]] CuDevicePtr ptr() const { return m_ptr; }
  [[nodiscard]] void* address() const { return reinterpret_cast<void*>(m_ptr); } // NOLINT
  [[nodiscard]] std::size_t bytes() const { return m_bytes; }

private:
  const Api* m_api = nullptr;
  CuDevicePtr m_ptr = 0;
  std::size_t m_bytes = 0;
};

// Page-locked host memory (cuMemHostAlloc, portable: pinned for every context), for copies
// between the host and a device at the bus's speed. Its pages come from the memory node of the
// thread that allocates it.
class HostBuffer {
public:
  // Fails with "cuMemHostAlloc(N bytes): ..." and the driver's error.
  static Result<HostBuffer> allocate(const Api& api, std::size_t bytes);
  HostBuffer(HostBuffer&& other) noexcept
      : m_api(std::exchange(other.m_api, nullptr)), m_ptr(std::exchange(other.m_ptr, nullptr)),
        m_bytes(other.m_bytes) {}
  HostBuffer& operator=(HostBuffer&&) = delete;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  ~HostBuffer();

  [[nodiscard]] void* get() const { return m_ptr; }
  [[nodiscard]] std::size_t bytes() const { return m_bytes; }

private:
  HostBuffer(const Api* api, void* ptr, std::size_t bytes)
      : m_api(api), m_ptr(ptr), m_bytes(bytes) {}
  const Api* m_api = nullptr;
  void* m_ptr = nullptr;
  std::size_t m_bytes = 0;
};

// A non-blocking stream of the current context.
class Stream {
public:
  // Fails with the driver's error for cuStreamCreate.
  static Result<Stream> create(const Api& api);
  Stream() = default;
  Stream(Stream&& other) noexcept
      : m_api(std::exchange(other.m_api, nullptr)),
        m_stream(std::exchange(other.m_stream, nullptr)) {}
  Stream& operator=(Stream&&) = delete;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();
  [[nodiscard]] CuStream get() const { return m_stream; }

private:
  const Api* m_api = nullptr;
  CuStream m_stream = nullptr;
};

// A timing event of the current context.
class Event {
public:
  // Fails with the driver's error for cuEventCreate.
  static Result<Event> create(const Api& api);
  Event(Event&& other) noexcept
      : m_api(std::exchange(other.m_api, nullptr)), m_event(std::exchange(other.m_event, nullptr)) {
  }
  Event& operator=(Event&&) = delete;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();
  [[nodiscard]] CuEvent get() const { return m_event; }

private:
  Event(const Api* api, CuEvent event) : m_api(api), m_event(event) {}
  const Api* m_api = nullptr;
  CuEvent m_event = nullptr;
};

// A module loaded from an in-memory image (fatbin, cubin or PTX) into the current context.
class Module {
public:
  // Fails with the driver's error for cuModuleLoadData (e.g. no code for this GPU).
  static Result<Module> load(const Api& api, const void* image);
  Module(Module&& other) noexcept
      : m_api(std::exchange(other.m_api, nullptr)),
        m_module(std::exchange(other.m_module, nullptr)) {}
  Module& operator=(Module&&) = delete;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  ~Module();
  // The kernel `name`, or "cuModuleGetFunction(NAME): ..." when the module lacks it.
  [[nodiscard]] Result<CuFunction> function(const char* name) const;

private:
  Module(const Api* api, CuModule module) : m_api(api), m_module(module) {}
  const Api* m_api = nullptr;
  CuModule m_module = nullptr;
};

// Seconds between two recorded events, after waiting for `stop`.
Result<double> elapsed_seconds(const Api& api, const Event& start, const Event& stop);

} // namespace envlock::verify::cuda
