#include "node/gpu_sampler.hpp"

#include "node/nvml.hpp"

#include <array>
#include <map>

namespace envlock::node {

namespace {

constexpr int k_temperature_gpu = 0; // NVML_TEMPERATURE_GPU
constexpr int k_clock_sm = 1;        // NVML_CLOCK_SM

class NvmlSampler final : public verify::GpuSampler {
public:
  explicit NvmlSampler(NvmlSession session) : m_session(std::move(session)) {
    const NvmlApi& api = m_session.api();
    unsigned count = 0;
    if (api.count(&count) != k_nvml_success) {
      return;
    }
    for (unsigned i = 0; i < count; ++i) {
      NvmlDevice device = nullptr;
      std::array<char, 96> uuid{};
      if (api.handle(i, &device) == k_nvml_success &&
          api.uuid(device, uuid.data(), static_cast<unsigned>(uuid.size())) == k_nvml_success) {
        m_devices[uuid.data()] = device;
      }
    }
    std::array<char, 96> driver{};
    if (api.driver(driver.data(), static_cast<unsigned>(driver.size())) == k_nvml_success) {
      m_driver = driver.data();
    }
  }

  Result<verify::GpuIdentity> identity(const std::string& uuid) override {
    ENVLOCK_TRY_ASSIGN(NvmlDevice device, find(uuid));
    verify::GpuIdentity identity;
    identity.driver_version = m_driver;
    std::array<char, 96> serial{};
    if (m_session.api().serial != nullptr &&
        m_session.api().serial(device, serial.data(), static_cast<unsigned>(serial.size())) ==
            k_nvml_success) {
      identity.serial = serial.data();
    }
    return identity;
  }

  Result<verify::GpuSample> sample(const std::string& uuid) override {
    ENVLOCK_TRY_ASSIGN(NvmlDevice device, find(uuid));
    const NvmlApi& api = m_session.api();
    verify::GpuSample sample;
    unsigned value = 0;
    if (api.temperature != nullptr &&
        api.temperature(device, k_temperature_gpu, &value) == k_nvml_success) {
      sample.temperature_c = static_cast<int>(value);
    }
    if (api.clock_info != nullptr && api.clock_info(device, k_clock_sm, &value) == k_nvml_success) {
      sample.sm_clock_mhz = value;
    }
    unsigned long long reasons = 0; // NOLINT(google-runtime-int): NVML's type
    if (api.clocks_event_reasons != nullptr &&
        api.clocks_event_reasons(device, &reasons) == k_nvml_success) {
      sample.event_reasons = reasons;
      sample.event_reasons_read = true;
    }
    return sample;
  }

private:
  Result<NvmlDevice> find(const std::string& uuid) const {
    const auto found = m_devices.find(uuid);
    if (found == m_devices.end()) {
      return env_error("NVML does not list " + uuid);
    }
    return found->second;
  }

  NvmlSession m_session;
  std::map<std::string, NvmlDevice> m_devices;
  std::string m_driver;
};

} // namespace

Result<std::shared_ptr<verify::GpuSampler>>
open_nvml_sampler(const std::vector<std::string>& names) {
  ENVLOCK_TRY_ASSIGN(NvmlSession session, NvmlSession::open(names));
  return std::shared_ptr<verify::GpuSampler>(std::make_shared<NvmlSampler>(std::move(session)));
}

} // namespace envlock::node
