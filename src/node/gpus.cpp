#include "node/gpus.hpp"

#include "util/process.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

namespace envlock::node {

using nlohmann::json;

namespace {

constexpr unsigned k_text_size = 96;

// NVML's text in `buf`, read no further than the buffer (NVML may leave it unterminated), as
// valid UTF-8.
std::string nvml_text(const std::array<char, k_text_size>& buf) {
  return util::escape_invalid_utf8(std::string_view(buf.data(), ::strnlen(buf.data(), buf.size())));
}

// One device's answers; `health` lists the calls that failed ("ok" when none did). `per_gpu`,
// when set, reads more of the device into `extra`.
json read_device(const NvmlSession& nvml, unsigned index, const PerGpuReader& per_gpu,
                 json& extra) {
  const NvmlApi& n = nvml.api();
  json gpu = {{"index", index}};
  NvmlDevice device = nullptr;
  nvml_calling("nvmlDeviceGetHandleByIndex_v2");
  if (const int rc = n.handle(index, &device); rc != k_nvml_success) {
    gpu["health"] = nvml.error_text("nvmlDeviceGetHandleByIndex_v2", rc);
    extra = {{"index", index}, {"missing", gpu["health"]}};
    return gpu;
  }
  std::vector<std::string> failures;
  const std::array<std::tuple<const char*, const char*, int (*)(NvmlDevice, char*, unsigned)>, 3>
      fields = {{{"name", "nvmlDeviceGetName", n.name},
                 {"uuid", "nvmlDeviceGetUUID", n.uuid},
                 {"vbios", "nvmlDeviceGetVbiosVersion", n.vbios}}};
  for (const auto& [key, call_name, call] : fields) {
    std::array<char, k_text_size> buf{};
    nvml_calling(call_name);
    if (const int rc = call(device, buf.data(), k_text_size); rc != k_nvml_success) {
      gpu[key] = nullptr;
      failures.push_back(nvml.error_text(key, rc));
    } else {
      gpu[key] = nvml_text(buf);
    }
  }
  gpu["health"] = failures.empty() ? "ok" : util::join(failures, "; ");
  if (per_gpu) {
    extra = per_gpu(nvml, device, index);
  }
  return gpu;
}

// What the reader threads share with the caller, who may stop waiting for them: a thread stuck
// in NVML keeps it alive.
struct NvmlRead {
  std::mutex mutex;
  std::condition_variable changed;
  std::atomic<const char*> session_call{"dlopen"}; // the session thread's call
  bool finished = false;                           // the session thread is done
  std::optional<std::string> error;                // why NVML could not be read
  bool fault = false;                              // NVML loaded and answered nonsense
  std::string driver;
  std::string source;
  bool counted = false;
  unsigned count = 0;
  std::vector<json> gpus;
  std::vector<json> extras;
  std::vector<char> done;
  std::vector<std::atomic<const char*>> calls; // each GPU thread's call
};

void read_one_gpu(const std::shared_ptr<NvmlRead>& state, const NvmlSession& nvml, unsigned i,
                  const PerGpuReader& per_gpu) {
  set_nvml_call_slot(&state->calls[i]);
  json gpu;
  json extra;
  try {
    gpu = read_device(nvml, i, per_gpu, extra);
  } catch (const std::exception& e) {
    const std::string why = std::string("reading the GPU failed: ") + e.what();
    gpu = {{"index", i}, {"health", why}};
    extra = {{"index", i}, {"missing", why}};
  }
  set_nvml_call_slot(nullptr);
  const std::lock_guard<std::mutex> lock(state->mutex);
  state->gpus[i] = std::move(gpu);
  state->extras[i] = std::move(extra);
  state->done[i] = 1;
  state->changed.notify_all();
}

// The session thread: opens NVML, counts the GPUs, reads each on a thread of its own (NVML is
// thread-safe; a GPU's health takes ~70 ms, most of it nvmlDeviceValidateInforom), waits for
// them and shuts NVML down. Never throws.
void read_session(const std::shared_ptr<NvmlRead>& state, const std::vector<std::string>& names,
                  const PerGpuReader& per_gpu) {
  set_nvml_call_slot(&state->session_call);
  const auto finish = [&](std::optional<std::string> error, bool fault) {
    set_nvml_call_slot(nullptr);
    const std::lock_guard<std::mutex> lock(state->mutex);
    state->error = std::move(error);
    state->fault = fault;
    state->finished = true;
    state->changed.notify_all();
  };
  try {
    auto opened = NvmlSession::open(names);
    if (!opened) {
      // nvmlInit_v2 failing (no driver) is NVML not there; anything past dlopen is NVML's own.
      finish(opened.error().message, false);
      return;
    }
    NvmlSession nvml = std::move(opened).value();
    const NvmlApi& n = nvml.api();
    std::array<char, k_text_size> driver{};
    nvml_calling("nvmlSystemGetDriverVersion");
    const std::string driver_text =
        n.driver(driver.data(), k_text_size) == k_nvml_success ? nvml_text(driver) : "";
    unsigned count = 0;
    nvml_calling("nvmlDeviceGetCount_v2");
    if (const int rc = n.count(&count); rc != k_nvml_success) {
      finish(nvml.error_text("nvmlDeviceGetCount_v2", rc), true);
      return;
    }
    if (count > k_max_gpus) {
      finish("nvmlDeviceGetCount_v2: NVML reports " + std::to_string(count) +
                 " GPUs, more than the " + std::to_string(k_max_gpus) + " a node can hold",
             true);
      return;
    }
    {
      const std::lock_guard<std::mutex> lock(state->mutex);
      state->driver = driver_text;
      state->source = "nvml (" + nvml.library() + ")";
      state->count = count;
      state->gpus.resize(count);
      state->extras.resize(count);
      state->done.assign(count, 0);
      state->calls = std::vector<std::atomic<const char*>>(count);
      for (unsigned i = 0; i < count; ++i) {
        state->calls[i].store("nvmlDeviceGetHandleByIndex_v2");
      }
      state->counted = true;
    }
    // With the health reader, each GPU on a thread of its own; the inventory alone takes well
    // under a millisecond a GPU, less than starting threads, but it has a deadline too.
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < count; ++i) {
      bool started = false;
      if (per_gpu && count > 1) {
        try {
          threads.emplace_back(read_one_gpu, state, std::cref(nvml), i, std::cref(per_gpu));
          started = true;
        } catch (const std::system_error&) {
          // no thread to be had: this GPU is read here, after the others started
        }
      }
      if (!started) {
        read_one_gpu(state, nvml, i, per_gpu);
      }
    }
    for (auto& t : threads) {
      t.join();
    }
    set_nvml_call_slot(&state->session_call);
    const auto closed = nvml.close();
    finish(closed ? std::nullopt : std::optional<std::string>(closed.error().message), !closed);
  } catch (const std::exception& e) {
    finish(std::string("reading NVML failed: ") + e.what(), true);
  }
}

std::string seconds_text(std::chrono::milliseconds deadline) {
  const auto ms = deadline.count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

// Reads NVML on threads of its own with a deadline: a call that does not return in time is
// named, its GPU (or NVML as a whole) fails, and the thread is left behind (mark_nvml_abandoned).
GpuInventory read_with_nvml(const std::vector<std::string>& names, const PerGpuReader& per_gpu,
                            std::chrono::milliseconds deadline, bool& fault, std::string& why) {
  auto state = std::make_shared<NvmlRead>();
  // The thread holds its own copies: the caller may return before it does.
  std::thread([state, names, per_gpu]() { read_session(state, names, per_gpu); }).detach();
  std::unique_lock<std::mutex> lock(state->mutex);
  const bool finished = state->changed.wait_for(lock, deadline, [&] { return state->finished; });
  const std::string late = " did not answer within " + seconds_text(deadline);
  if (!finished) {
    mark_nvml_abandoned();
  }
  if (finished && state->error && !state->counted) {
    fault = state->fault;
    why = *state->error;
    return {};
  }
  if (!state->counted) {
    fault = true;
    why = std::string(state->session_call.load()) + late;
    return {};
  }
  GpuInventory inv;
  inv.source = state->source;
  inv.driver = state->driver;
  for (unsigned i = 0; i < state->count; ++i) {
    if (state->done[i] != 0) {
      inv.gpus.push_back(state->gpus[i]);
      if (per_gpu) {
        inv.per_gpu.push_back(state->extras[i]);
      }
      continue;
    }
    const std::string stuck = std::string(state->calls[i].load()) + late;
    inv.gpus.push_back({{"index", i}, {"health", stuck}});
    if (per_gpu) {
      inv.per_gpu.push_back({{"index", i}, {"missing", stuck}});
    }
  }
  if (finished && state->error) {
    fault = state->fault;
    why = *state->error; // nvmlShutdown failed: the answers stand, NVML's failure is said
  } else if (!finished &&
             std::all_of(state->done.begin(), state->done.end(), [](char d) { return d != 0; })) {
    fault = true;
    why = std::string(state->session_call.load()) + late;
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

GpuInventory read_gpus(const std::vector<std::string>& nvml_names, bool run_programs,
                       const PerGpuReader& per_gpu, std::chrono::milliseconds deadline) {
  bool fault = false;
  std::string nvml_why;
  GpuInventory nvml = read_with_nvml(nvml_names, per_gpu, deadline, fault, nvml_why);
  if (!nvml.source.empty()) {
    nvml.nvml_fault = fault ? nvml_why : "";
    return nvml;
  }
  std::string why = nvml_why;
  // NVML that loaded and then failed or hung is not asked again through nvidia-smi, which
  // reads the same NVML: the fault is the answer.
  if (run_programs && !fault) {
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
  none.nvml_fault = fault ? nvml_why : "";
  return none;
}

} // namespace envlock::node
