#include "node/gpus.hpp"

#include "util/dl.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"

#include <array>

namespace envlock::node {

using nlohmann::json;

namespace {

// NVML's C interface, declared here so that nothing links against it.
using NvmlDevice = struct NvmlDeviceOpaque*;
using NvmlInit = int (*)();
using NvmlCount = int (*)(unsigned*);
using NvmlHandle = int (*)(unsigned, NvmlDevice*);
using NvmlText = int (*)(NvmlDevice, char*, unsigned);
using NvmlSystemText = int (*)(char*, unsigned);
using NvmlErrorString = const char* (*)(int);

constexpr unsigned k_text_size = 96;

struct Nvml {
  NvmlInit init = nullptr;
  NvmlInit shutdown = nullptr;
  NvmlCount count = nullptr;
  NvmlHandle handle = nullptr;
  NvmlText name = nullptr;
  NvmlText uuid = nullptr;
  NvmlText vbios = nullptr;
  NvmlSystemText driver = nullptr;
  NvmlErrorString error = nullptr;
};

Result<Nvml> resolve(const util::DlHandle& lib) {
  Nvml n;
  ENVLOCK_TRY(util::dl_bind(lib, n.init, "nvmlInit_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, n.shutdown, "nvmlShutdown"));
  ENVLOCK_TRY(util::dl_bind(lib, n.count, "nvmlDeviceGetCount_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, n.handle, "nvmlDeviceGetHandleByIndex_v2"));
  ENVLOCK_TRY(util::dl_bind(lib, n.name, "nvmlDeviceGetName"));
  ENVLOCK_TRY(util::dl_bind(lib, n.uuid, "nvmlDeviceGetUUID"));
  ENVLOCK_TRY(util::dl_bind(lib, n.vbios, "nvmlDeviceGetVbiosVersion"));
  ENVLOCK_TRY(util::dl_bind(lib, n.driver, "nvmlSystemGetDriverVersion"));
  ENVLOCK_TRY(util::dl_bind(lib, n.error, "nvmlErrorString"));
  return n;
}

std::string nvml_error(const Nvml& n, const char* call, int rc) {
  const char* text = n.error(rc);
  return std::string(call) + ": NVML error " + std::to_string(rc) +
         (text == nullptr ? "" : " (" + std::string(text) + ")");
}

// One device's answers; `health` lists the calls that failed ("ok" when none did).
json read_device(const Nvml& n, unsigned index) {
  json gpu = {{"index", index}};
  NvmlDevice device = nullptr;
  if (const int rc = n.handle(index, &device); rc != 0) {
    gpu["health"] = nvml_error(n, "nvmlDeviceGetHandleByIndex_v2", rc);
    return gpu;
  }
  std::vector<std::string> failures;
  const std::array<std::pair<const char*, NvmlText>, 3> fields = {
      {{"name", n.name}, {"uuid", n.uuid}, {"vbios", n.vbios}}};
  for (const auto& [key, call] : fields) {
    std::array<char, k_text_size> buf{};
    if (const int rc = call(device, buf.data(), k_text_size); rc != 0) {
      gpu[key] = nullptr;
      failures.push_back(nvml_error(n, key, rc));
    } else {
      gpu[key] = std::string(buf.data());
    }
  }
  gpu["health"] = failures.empty() ? "ok" : util::join(failures, "; ");
  return gpu;
}

Result<GpuInventory> read_with_nvml(const std::vector<std::string>& names) {
  ENVLOCK_TRY_ASSIGN(const util::DlHandle lib, util::dl_open(names));
  ENVLOCK_TRY_ASSIGN(const Nvml n, resolve(lib));
  if (const int rc = n.init(); rc != 0) {
    return env_error(nvml_error(n, "nvmlInit_v2", rc));
  }
  GpuInventory inv;
  inv.source = "nvml (" + lib.name() + ")";
  std::array<char, k_text_size> driver{};
  if (n.driver(driver.data(), k_text_size) == 0) {
    inv.driver = driver.data();
  }
  unsigned count = 0;
  if (const int rc = n.count(&count); rc != 0) {
    const std::string why = nvml_error(n, "nvmlDeviceGetCount_v2", rc);
    (void)n.shutdown();
    return env_error(why);
  }
  for (unsigned i = 0; i < count; ++i) {
    inv.gpus.push_back(read_device(n, i));
  }
  if (const int rc = n.shutdown(); rc != 0) {
    return env_error(nvml_error(n, "nvmlShutdown", rc));
  }
  return inv;
}

Result<GpuInventory> read_with_nvidia_smi() {
  if (!util::find_program("nvidia-smi")) {
    return env_error("nvidia-smi: not in PATH");
  }
  ENVLOCK_TRY_ASSIGN(
      const auto result,
      util::run_process({"nvidia-smi", "--query-gpu=index,name,uuid,vbios_version,driver_version",
                         "--format=csv,noheader"}));
  if (result.exit_code != 0) {
    return env_error("nvidia-smi: exit status " + std::to_string(result.exit_code));
  }
  GpuInventory inv;
  inv.source = "nvidia-smi";
  for (const auto& line : util::split(result.out, '\n')) {
    const auto cells = util::split(line, ',');
    const std::string index(util::trim(cells.empty() ? "" : cells[0]));
    if (cells.size() < 5 || index.empty() ||
        index.find_first_not_of("0123456789") != std::string::npos || index.size() > 6) {
      continue;
    }
    json gpu = {{"index", std::stoi(index)},
                {"name", std::string(util::trim(cells[1]))},
                {"uuid", std::string(util::trim(cells[2]))},
                {"vbios", std::string(util::trim(cells[3]))},
                {"health", "ok"}};
    inv.driver = std::string(util::trim(cells[4]));
    inv.gpus.push_back(std::move(gpu));
  }
  return inv;
}

} // namespace

GpuInventory read_gpus(const std::vector<std::string>& nvml_names, bool run_programs) {
  auto nvml = read_with_nvml(nvml_names);
  if (nvml) {
    return std::move(nvml).value();
  }
  std::string why = nvml.error().message;
  if (run_programs) {
    auto smi = read_with_nvidia_smi();
    if (smi) {
      return std::move(smi).value();
    }
    why += "; " + smi.error().message;
  }
  GpuInventory none;
  none.missing = why;
  return none;
}

} // namespace envlock::node
