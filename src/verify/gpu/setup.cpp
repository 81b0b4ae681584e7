#include "verify/gpu/setup.hpp"

#include "verify/gpu/allreduce.hpp"

#include "verify/gpu/cuda_raii.hpp"
#include "verify/gpu/libraries.hpp"
#include "verify/gpu/timer.hpp"

namespace envlock::verify {

namespace {

// A future that is ready: the part of the set-up that was not asked for.
std::shared_future<void> ready_future() {
  std::promise<void> promise;
  promise.set_value();
  return promise.get_future().share();
}

} // namespace

GpuSetup::GpuSetup(const cuda::Api& api, std::vector<std::filesystem::path> library_dirs, bool blas,
                   bool nccl, std::function<void()> loaded)
    : m_api(&api), m_library_dirs(std::move(library_dirs)),
      m_devices(m_devices_promise.get_future().share()), m_loaded(std::move(loaded)),
      m_loading((blas ? 1 : 0) + (nccl ? 1 : 0)), m_blas_done(ready_future()),
      m_nccl_done(ready_future()), m_nccl_loaded(ready_future()) {
  if (m_loading == 0 && m_loaded) {
    m_loaded();
  }
  // NCCL first: its communicators take longest, and the dynamic linker loads one library at a
  // time, so cuBLASLt's load waits until NCCL's is done.
  if (nccl) {
    auto done = std::make_shared<std::promise<void>>();
    m_nccl_done = done->get_future().share();
    auto nccl_loaded = std::make_shared<std::promise<void>>();
    m_nccl_loaded = nccl_loaded->get_future().share();
    m_nccl_thread = std::jthread([this, done, nccl_loaded]() {
      nccl_thread(*nccl_loaded);
      done->set_value();
    });
  }
  if (blas) {
    auto done = std::make_shared<std::promise<void>>();
    m_blas_done = done->get_future().share();
    m_blas_thread = std::jthread([this, done]() {
      m_nccl_loaded.wait();
      blas_thread();
      done->set_value();
    });
  }
}

GpuSetup::~GpuSetup() {
  if (!m_devices_given) {
    m_devices_promise.set_value({});
  }
  // The jthreads join here, before the results they write are destroyed.
}

void GpuSetup::set_devices(std::vector<DeviceInfo> devices) {
  m_devices_given = true;
  m_devices_promise.set_value(std::move(devices));
}

const BlasSetup& GpuSetup::blas() const {
  m_blas_done.wait();
  return m_blas;
}

void GpuSetup::wait() const {
  m_blas_done.wait();
  m_nccl_done.wait();
}

NcclSetup& GpuSetup::nccl() {
  wait();
  return m_nccl;
}

void GpuSetup::one_loaded() {
  if (--m_loading == 0 && m_loaded) {
    m_loaded();
  }
}

void GpuSetup::blas_thread() {
  Stopwatch watch;
  m_blas.library = blaslt::load(library_candidates(
      m_library_dirs, {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"}));
  if (!m_blas.library) {
    m_blas.library = with_prefix(std::move(m_blas.library).error(), "cuBLASLt: ");
  }
  m_blas.load_seconds = watch.lap();
  one_loaded();
  const auto& devices = m_devices.get();
  for (const auto& device : devices) {
    watch.lap();
    if (!m_blas.library) {
      m_blas.handles.emplace_back(m_blas.library.error());
      m_blas.handle_seconds.push_back(0);
      continue;
    }
    // The handle is made for the device whose context is current on this thread; the context
    // stays retained as long as the handle lives.
    auto context = cuda::PrimaryContext::open(*m_api, device.device);
    if (context) {
      m_blas.handles.push_back(blaslt::Handle::create(m_blas.library->api));
      m_contexts.push_back(std::move(*context));
    } else {
      m_blas.handles.emplace_back(context.error());
    }
    m_blas.handle_seconds.push_back(watch.lap());
  }
}

void GpuSetup::nccl_thread(std::promise<void>& loaded) {
  Stopwatch watch;
  m_nccl.library = nccl::load(library_candidates(m_library_dirs, {"libnccl.so.2"}));
  if (!m_nccl.library) {
    m_nccl.library = with_prefix(std::move(m_nccl.library).error(), "NCCL: ");
  }
  m_nccl.load_seconds = watch.lap();
  loaded.set_value();
  one_loaded();
  const auto& devices = m_devices.get();
  if (!m_nccl.library || devices.empty()) {
    m_nccl.comms = m_nccl.library ? env_error("NCCL: no GPU") : m_nccl.library.error();
    return;
  }
  std::vector<int> ordinals;
  for (const auto& device : devices) {
    ordinals.push_back(device.device);
  }
  m_nccl.comms = nccl::Communicators::init_all(m_nccl.library->api, ordinals);
  m_nccl.init_seconds = watch.lap();
  if (m_nccl.comms) {
    m_nccl.known_answer = allreduce_known_answer(*m_api, *m_nccl.library, *m_nccl.comms, devices);
    m_nccl.known_answer_seconds = watch.lap();
  }
}

} // namespace envlock::verify
