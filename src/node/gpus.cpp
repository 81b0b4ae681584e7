#include "node/gpus.hpp"

#include "util/process.hpp"
#include "util/strings.hpp"

#include <array>
#include <thread>

namespace envlock::node {

using nlohmann::json;

namespace {

constexpr unsigned k_text_size = 96;

// One device's answers; `health` lists the calls that failed ("ok" when none did). `per_gpu`,
// when set, reads more of the device into `extra`.
json read_device(const NvmlSession& nvml, unsigned index, const PerGpuReader& per_gpu,
                 json& extra) {
  const NvmlApi& n = nvml.api();
  json gpu = {{"index", index}};
  NvmlDevice device = nullptr;
  if (const int rc = n.handle(index, &device); rc != k_nvml_success) {
    gpu["health"] = nvml.error_text("nvmlDeviceGetHandleByIndex_v2", rc);
    extra = {{"index", index}, {"missing", gpu["health"]}};
    return gpu;
  }
  std::vector<std::string> failures;
  const std::array<std::pair<const char*, int (*)(NvmlDevice, char*, unsigned)>, 3> fields = {
      {{"name", n.name}, {"uuid", n.uuid}, {"vbios", n.vbios}}};
  for (const auto& [key, call] : fields) {
    std::array<char, k_text_size> buf{};
    if (const int rc = call(device, buf.data(), k_text_size); rc != k_nvml_success) {
      gpu[key] = nullptr;
      failures.push_back(nvml.error_text(key, rc));
    } else {
      gpu[key] = std::string(buf.data());
    }
  }
  gpu["health"] = failures.empty() ? "ok" : util::join(failures, "; ");
  if (per_gpu) {
    extra = per_gpu(nvml, device, index);
  }
  return gpu;
}

Result<GpuInventory> read_with_nvml(const std::vector<std::string>& names,
                                    const PerGpuReader& per_gpu) {
  ENVLOCK_TRY_ASSIGN(NvmlSession nvml, NvmlSession::open(names));
  const NvmlApi& n = nvml.api();
  GpuInventory inv;
  inv.source = "nvml (" + nvml.library() + ")";
  std::array<char, k_text_size> driver{};
  if (n.driver(driver.data(), k_text_size) == k_nvml_success) {
    inv.driver = driver.data();
  }
  unsigned count = 0;
  if (const int rc = n.count(&count); rc != k_nvml_success) {
    return env_error(nvml.error_text("nvmlDeviceGetCount_v2", rc));
  }
  // With the health reader, each GPU on a thread of its own (NVML is thread-safe; a GPU's health
  // takes ~70 ms, most of it nvmlDeviceValidateInforom); the inventory alone takes well under a
  // millisecond a GPU, less than starting threads. The answers are kept in index order.
  std::vector<json> gpus(count);
  std::vector<json> extras(count);
  const auto read_one = [&](unsigned i) { gpus[i] = read_device(nvml, i, per_gpu, extras[i]); };
  if (per_gpu && count > 1) {
    std::vector<std::jthread> threads;
    threads.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
      threads.emplace_back(read_one, i);
    }
  } else {
    for (unsigned i = 0; i < count; ++i) {
      read_one(i);
    }
  }
  for (unsigned i = 0; i < count; ++i) {
    inv.gpus.push_back(std::move(gpus[i]));
    if (per_gpu) {
      inv.per_gpu.push_back(std::move(extras[i]));
    }
  }
  ENVLOCK_TRY(nvml.close());
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

GpuInventory read_gpus(const std::vector<std::string>& nvml_names, bool run_programs,
                       const PerGpuReader& per_gpu) {
  auto nvml = read_with_nvml(nvml_names, per_gpu);
  if (nvml) {
    return std::move(nvml).value();
  }
  std::string why = nvml.error().message;
  const std::string nvml_why = why;
  if (run_programs) {
    auto smi = read_with_nvidia_smi();
    if (smi) {
      smi->nvml_missing = nvml_why;
      return std::move(smi).value();
    }
    why += "; " + smi.error().message;
  }
  GpuInventory none;
  none.missing = why;
  none.nvml_missing = nvml_why;
  return none;
}

} // namespace envlock::node
