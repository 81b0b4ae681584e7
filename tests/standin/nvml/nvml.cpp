// A stand-in for libnvidia-ml.so.1 that answers NVML's calls from a scenario file, for the faults
// real hardware cannot produce on demand (a pending row remap, an NVLink down, an NVML that fails
// mid-way). Built by the tests only; never installed.
//
// ENVLOCK_NVML_SCENARIO names a JSON file:
//   {"driver": "580.159.04", "init": 0,
//    "fail_from": {"call": "nvmlDeviceGetRemappedRows", "rc": 999},   (optional)
//    "together": {"call": "nvmlDeviceValidateInforom", "gpus": 8, "timeout_ms": 10000}, (optional)
//    "delay_ms": {"nvmlDeviceValidateInforom": 70},                    (optional)
//    "gpus": [{"nvmlDeviceGetName": "NVIDIA H200", "nvmlDeviceGetEccMode": [1, 1], ...}]}
// Each GPU maps an NVML function to its answer: a value (see answer_* below for the shapes), or
// {"rc": N} for an error. A function a GPU does not list answers 999 (Unknown Error), so a
// scenario says everything it means. From a GPU's first call of `fail_from.call` on, every call
// of that GPU answers `fail_from.rc`: NVML failing mid-way, each GPU in its own call order (as a
// GPU falling off the bus). `together.call` waits until `together.gpus` GPUs are inside it at
// once (proof that they are read side by side); one that waits past `together.timeout_ms`
// answers 10 (Timeout). `delay_ms` makes a call take that long (nvmlDeviceValidateInforom takes
// ~70 ms on an H100). Safe to call from several threads, as NVML is.
//
// Nonsense and hangs, for the faults a broken driver gives:
//   "count": N                     nvmlDeviceGetCount_v2 answers N whatever "gpus" holds
//   "hang": {"call": C, "gpu": I}  call C (of GPU I; of every GPU without "gpu"; nvmlInit_v2,
//                                  nvmlDeviceGetCount_v2 and nvmlShutdown too) never returns
//   "ignore_sigterm": true         nvmlInit_v2 sets SIGTERM to be ignored, as a process stuck in
//                                  the driver does not die of it
//   a text answer {"hex": "ff41", "unterminated": true}: those bytes, the buffer filled without
//                                  a terminating NUL when "unterminated"
//   a process list answer {"claim": N}: success with the count set to N and nothing written
//   an error answer {"rc": 777}: nvmlErrorString(777) is not UTF-8
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace {

using nlohmann::json;

constexpr int k_unknown = 999;
constexpr int k_invalid_argument = 2;
constexpr int k_insufficient_size = 7;
constexpr int k_timeout = 10;

// Written by nvmlInit_v2 only; the device calls read it through scenario().
json g_scenario;
// The state the device calls change, guarded by g_mutex.
std::mutex g_mutex;
std::condition_variable g_together_changed;
std::set<std::size_t> g_failing;                  // the GPUs past their `fail_from.call`
std::map<std::size_t, std::size_t> g_clock_reads; // per GPU
std::size_t g_together_inside = 0;                // GPUs inside `together.call` now
bool g_together_met = false;                      // `together.gpus` were inside at once

const json& scenario() {
  return g_scenario;
}

struct PciInfo {
  char bus_id_legacy[16];
  unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
  char bus_id[32];
};
struct ProcessInfo {
  unsigned pid;
  unsigned long long used;
  unsigned gpu_instance, compute_instance;
};
struct FabricInfo {
  unsigned char uuid[16];
  int status;
  unsigned clique;
  unsigned char state;
};
struct FabricInfoV3 {
  unsigned version;
  unsigned char uuid[16];
  int status;
  unsigned clique;
  unsigned char state;
  unsigned health_mask;
  unsigned char health_summary;
};
struct Temperature {
  unsigned version;
  int sensor;
  int temperature;
};

using Device = void*;

std::size_t index_of(Device d) {
  return reinterpret_cast<std::uintptr_t>(d) - 1; // NOLINT
}

// Whether GPU `gpu` fails `call` (and every call after it): `fail_from`.
bool failing(std::size_t gpu, const char* call, int& rc) {
  const json& s = scenario();
  if (!s.contains("fail_from")) {
    return false;
  }
  const json& from = s.at("fail_from");
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_failing.count(gpu) == 0 && from.value("call", "") != call) {
    return false;
  }
  g_failing.insert(gpu);
  rc = from.value("rc", k_unknown);
  return true;
}

// Waits inside `together.call` until `together.gpus` GPUs are in it at once; false after
// `together.timeout_ms`.
bool meet(const char* call) {
  const json& s = scenario();
  if (!s.contains("together") || s.at("together").value("call", "") != call) {
    return true;
  }
  const json& together = s.at("together");
  const auto wanted = together.value("gpus", std::size_t{1});
  const auto timeout = std::chrono::milliseconds(together.value("timeout_ms", 10000));
  std::unique_lock<std::mutex> lock(g_mutex);
  ++g_together_inside;
  if (g_together_inside >= wanted) {
    g_together_met = true;
    g_together_changed.notify_all();
  }
  const bool met = g_together_changed.wait_for(lock, timeout, [] { return g_together_met; });
  --g_together_inside;
  return met;
}

// Never returns when the scenario's `hang` names `call` (and GPU `gpu`, when it names one).
void hang_if(const char* call, long gpu) {
  const json& s = scenario();
  if (!s.contains("hang") || s.at("hang").value("call", "") != call) {
    return;
  }
  if (gpu >= 0 && s.at("hang").contains("gpu") && s.at("hang").at("gpu").get<long>() != gpu) {
    return;
  }
  for (;;) {
    std::this_thread::sleep_for(std::chrono::seconds(3600));
  }
}

// The answer of GPU `d` to `call`, or an error code in `rc`.
const json* answer(Device d, const char* call, int& rc) {
  rc = 0;
  const json& s = scenario();
  const std::size_t i = index_of(d);
  hang_if(call, static_cast<long>(i));
  if (failing(i, call, rc)) {
    return nullptr;
  }
  if (s.contains("delay_ms") && s.at("delay_ms").contains(call)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(s.at("delay_ms").at(call).get<int>()));
  }
  if (!meet(call)) {
    rc = k_timeout;
    return nullptr;
  }
  const json& gpus = s.at("gpus");
  if (i >= gpus.size() || !gpus.at(i).contains(call)) {
    rc = k_unknown;
    return nullptr;
  }
  const json& a = gpus.at(i).at(call);
  if (a.is_object() && a.contains("rc") && a.size() == 1) {
    rc = a.at("rc").get<int>();
    return rc == 0 ? &a : nullptr;
  }
  return &a;
}

// An element of an answer that may itself be {"rc": N}.
int element(const json& a, int& rc) {
  if (a.is_object() && a.contains("rc")) {
    rc = a.at("rc").get<int>();
    return 0;
  }
  return a.get<int>();
}

int text_answer(Device d, const char* call, char* out, unsigned size) {
  int rc = 0;
  const json* a = answer(d, call, rc);
  if (a == nullptr) {
    return rc;
  }
  if (a->is_object() && a->contains("hex")) {
    const std::string hex = a->at("hex").get<std::string>();
    std::string bytes;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
      bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    }
    if (a->value("unterminated", false)) {
      std::memset(out, 'A', size);
      std::memcpy(out, bytes.data(), std::min<std::size_t>(bytes.size(), size));
    } else {
      std::snprintf(out, size, "%s", bytes.c_str());
    }
    return 0;
  }
  std::snprintf(out, size, "%s", a->get<std::string>().c_str());
  return 0;
}

template <typename T> int number_answer(Device d, const char* call, T* out) {
  int rc = 0;
  const json* a = answer(d, call, rc);
  if (a == nullptr) {
    return rc;
  }
  *out = a->get<T>();
  return 0;
}

void parse_uuid(const std::string& hex, unsigned char* out) {
  std::string digits;
  for (char c : hex) {
    if (c != '-') {
      digits += c;
    }
  }
  for (std::size_t i = 0; i < 16 && 2 * i + 1 < digits.size(); ++i) {
    out[i] = static_cast<unsigned char>(std::stoi(digits.substr(2 * i, 2), nullptr, 16));
  }
}

} // namespace

extern "C" {

int nvmlInit_v2() {
  const char* path = std::getenv("ENVLOCK_NVML_SCENARIO"); // NOLINT
  std::ifstream in(path == nullptr ? "" : path);
  if (!in) {
    std::fprintf(stderr, "nvml stand-in: cannot read ENVLOCK_NVML_SCENARIO\n");
    return k_unknown;
  }
  g_scenario = json::parse(in, nullptr, false);
  if (g_scenario.is_discarded()) {
    std::fprintf(stderr, "nvml stand-in: the scenario is not JSON\n");
    return k_unknown;
  }
  if (g_scenario.value("ignore_sigterm", false)) {
    std::signal(SIGTERM, SIG_IGN);
  }
  hang_if("nvmlInit_v2", -1);
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_failing.clear();
  g_clock_reads.clear();
  g_together_inside = 0;
  g_together_met = false;
  return g_scenario.value("init", 0);
}

int nvmlShutdown() {
  hang_if("nvmlShutdown", -1);
  return 0;
}

const char* nvmlErrorString(int rc) {
  switch (rc) {
  case 0:
    return "Success";
  case 1:
    return "Uninitialized";
  case 2:
    return "Invalid Argument";
  case 3:
    return "Not Supported";
  case 4:
    return "Insufficient Permissions";
  case 9:
    return "Driver Not Loaded";
  case k_timeout:
    return "Timeout";
  case 14:
    return "Corrupted infoROM";
  case 15:
    return "GPU is lost";
  case 777:
    return "\xff\xfe not \xc3 text";
  default:
    return "Unknown Error";
  }
}

int nvmlSystemGetDriverVersion(char* out, unsigned size) {
  std::snprintf(out, size, "%s", scenario().value("driver", "").c_str());
  return 0;
}

int nvmlDeviceGetCount_v2(unsigned* count) {
  hang_if("nvmlDeviceGetCount_v2", -1);
  *count = scenario().contains("count") ? scenario().at("count").get<unsigned>()
                                        : static_cast<unsigned>(scenario().at("gpus").size());
  return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned index, Device* device) {
  hang_if("nvmlDeviceGetHandleByIndex_v2", static_cast<long>(index));
  if (index >= scenario().at("gpus").size()) {
    *device = reinterpret_cast<Device>(static_cast<std::uintptr_t>(index) + 1); // NOLINT
    return 0;
  }
  const json& gpu = scenario().at("gpus").at(index);
  if (gpu.contains("handle_rc")) {
    return gpu.at("handle_rc").get<int>();
  }
  *device = reinterpret_cast<Device>(static_cast<std::uintptr_t>(index) + 1); // NOLINT
  return 0;
}

int nvmlDeviceGetName(Device d, char* out, unsigned size) {
  return text_answer(d, "nvmlDeviceGetName", out, size);
}
int nvmlDeviceGetUUID(Device d, char* out, unsigned size) {
  return text_answer(d, "nvmlDeviceGetUUID", out, size);
}
int nvmlDeviceGetVbiosVersion(Device d, char* out, unsigned size) {
  return text_answer(d, "nvmlDeviceGetVbiosVersion", out, size);
}

int nvmlDeviceGetPciInfo_v3(Device d, PciInfo* pci) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetPciInfo_v3", rc);
  if (a == nullptr) {
    return rc;
  }
  std::memset(pci, 0, sizeof(*pci));
  const std::string id = a->get<std::string>(); // "00000000:3B:00.0"
  std::snprintf(pci->bus_id, sizeof(pci->bus_id), "%s", id.c_str());
  std::snprintf(pci->bus_id_legacy, sizeof(pci->bus_id_legacy), "%s", id.substr(4).c_str());
  pci->bus = static_cast<unsigned>(std::stoul(id.substr(9, 2), nullptr, 16));
  pci->device = static_cast<unsigned>(std::stoul(id.substr(12, 2), nullptr, 16));
  return 0;
}

int nvmlDeviceGetEccMode(Device d, int* current, int* pending) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetEccMode", rc);
  if (a == nullptr) {
    return rc;
  }
  *current = (*a)[0].get<int>();
  *pending = (*a)[1].get<int>();
  return 0;
}

int nvmlDeviceGetTotalEccErrors(Device d, int type, int counter, unsigned long long* count) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetTotalEccErrors", rc);
  if (a == nullptr) {
    return rc;
  }
  const std::string key = std::string(type == 0 ? "corrected" : "uncorrected") + "_" +
                          (counter == 0 ? "volatile" : "aggregate");
  const json& e = a->at(key);
  if (e.is_object()) {
    return e.at("rc").get<int>();
  }
  *count = e.get<unsigned long long>();
  return 0;
}

int nvmlDeviceGetRemappedRows(Device d, unsigned* corr, unsigned* unc, unsigned* pending,
                              unsigned* failure) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetRemappedRows", rc);
  if (a == nullptr) {
    return rc;
  }
  *corr = (*a)[0].get<unsigned>();
  *unc = (*a)[1].get<unsigned>();
  *pending = (*a)[2].get<unsigned>();
  *failure = (*a)[3].get<unsigned>();
  return 0;
}

int nvmlDeviceGetRetiredPages(Device d, int cause, unsigned* count, unsigned long long*) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetRetiredPages", rc);
  if (a == nullptr) {
    return rc;
  }
  const unsigned n = a->at(cause == 0 ? "single_bit" : "double_bit").get<unsigned>();
  const unsigned room = *count;
  *count = n;
  return n > room ? k_insufficient_size : 0;
}

int nvmlDeviceGetRetiredPagesPendingStatus(Device d, int* pending) {
  return number_answer(d, "nvmlDeviceGetRetiredPagesPendingStatus", pending);
}

int nvmlDeviceGetCurrentClocksEventReasons(Device d, unsigned long long* reasons) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetCurrentClocksEventReasons", rc);
  if (a == nullptr) {
    return rc;
  }
  // A list: successive readings (the last repeats).
  std::size_t reading = 0;
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    reading = g_clock_reads[index_of(d)]++;
  }
  const json& v = a->is_array() ? a->at(std::min(reading, a->size() - 1)) : *a;
  *reasons = v.get<unsigned long long>();
  return 0;
}

int nvmlDeviceGetTemperature(Device d, int, unsigned* temp) {
  return number_answer(d, "nvmlDeviceGetTemperature", temp);
}

int nvmlDeviceGetTemperatureV(Device d, Temperature* t) {
  return number_answer(d, "nvmlDeviceGetTemperature", &t->temperature);
}

int nvmlDeviceGetTemperatureThreshold(Device d, int type, unsigned* temp) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetTemperatureThreshold", rc);
  if (a == nullptr) {
    return rc;
  }
  const json& v = a->at(type == 0 ? "shutdown" : "slowdown");
  const int n = element(v, rc);
  if (rc != 0) {
    return rc;
  }
  *temp = static_cast<unsigned>(n);
  return 0;
}

#define ENVLOCK_STANDIN_UNSIGNED(NAME)                                                             \
  int NAME(Device d, unsigned* out) {                                                              \
    return number_answer(d, #NAME, out);                                                           \
  }
ENVLOCK_STANDIN_UNSIGNED(nvmlDeviceGetPowerUsage)
ENVLOCK_STANDIN_UNSIGNED(nvmlDeviceGetEnforcedPowerLimit)
ENVLOCK_STANDIN_UNSIGNED(nvmlDeviceGetCurrPcieLinkGeneration)
ENVLOCK_STANDIN_UNSIGNED(nvmlDeviceGetMaxPcieLinkGeneration)
ENVLOCK_STANDIN_UNSIGNED(nvmlDeviceGetGpuMaxPcieLinkGeneration)
ENVLOCK_STANDIN_UNSIGNED(nvmlDeviceGetCurrPcieLinkWidth)
ENVLOCK_STANDIN_UNSIGNED(nvmlDeviceGetMaxPcieLinkWidth)
ENVLOCK_STANDIN_UNSIGNED(nvmlDeviceGetPcieReplayCounter)

int nvmlDeviceGetNvLinkState(Device d, unsigned link, int* active) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetNvLinkState", rc);
  if (a == nullptr) {
    return rc;
  }
  if (link >= a->size()) {
    return k_invalid_argument;
  }
  *active = element((*a)[link], rc);
  return rc;
}

int nvmlDeviceGetGpuFabricInfoV(Device d, FabricInfoV3* info) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetGpuFabricInfoV", rc);
  if (a == nullptr) {
    return rc;
  }
  if (info->version != (sizeof(FabricInfoV3) | (3U << 24U))) {
    return 25; // NVML_ERROR_ARGUMENT_VERSION_MISMATCH
  }
  info->state = a->value("state", 0);
  info->status = a->value("status", 0);
  info->clique = a->value("clique", 0U);
  info->health_mask = a->value("health_mask", 0U);
  info->health_summary = a->value("health_summary", 0);
  parse_uuid(a->value("cluster_uuid", ""), info->uuid);
  return 0;
}

int nvmlDeviceGetGpuFabricInfo(Device d, FabricInfo* info) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetGpuFabricInfoV", rc);
  if (a == nullptr) {
    return rc;
  }
  info->state = a->value("state", 0);
  info->status = a->value("status", 0);
  info->clique = a->value("clique", 0U);
  parse_uuid(a->value("cluster_uuid", ""), info->uuid);
  return 0;
}

int nvmlDeviceGetPersistenceMode(Device d, int* mode) {
  return number_answer(d, "nvmlDeviceGetPersistenceMode", mode);
}

int nvmlDeviceGetMigMode(Device d, unsigned* current, unsigned* pending) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceGetMigMode", rc);
  if (a == nullptr) {
    return rc;
  }
  *current = (*a)[0].get<unsigned>();
  *pending = (*a)[1].get<unsigned>();
  return 0;
}

int nvmlDeviceGetComputeMode(Device d, int* mode) {
  return number_answer(d, "nvmlDeviceGetComputeMode", mode);
}

static int process_answer(Device d, const char* call, unsigned* count, ProcessInfo* infos) {
  int rc = 0;
  const json* a = answer(d, call, rc);
  if (a == nullptr) {
    return rc;
  }
  if (a->is_object() && a->contains("claim")) {
    *count = a->at("claim").get<unsigned>();
    return 0;
  }
  if (a->size() > *count) {
    *count = static_cast<unsigned>(a->size());
    return k_insufficient_size;
  }
  *count = static_cast<unsigned>(a->size());
  for (std::size_t i = 0; i < a->size(); ++i) {
    infos[i] = ProcessInfo{(*a)[i].value("pid", 0U), (*a)[i].value("used_mib", 0ULL) * 1024 * 1024,
                           0xFFFFFFFFU, 0xFFFFFFFFU};
  }
  return 0;
}

int nvmlDeviceGetComputeRunningProcesses_v3(Device d, unsigned* count, ProcessInfo* infos) {
  return process_answer(d, "nvmlDeviceGetComputeRunningProcesses_v3", count, infos);
}

int nvmlDeviceGetGraphicsRunningProcesses_v3(Device d, unsigned* count, ProcessInfo* infos) {
  return process_answer(d, "nvmlDeviceGetGraphicsRunningProcesses_v3", count, infos);
}

int nvmlDeviceValidateInforom(Device d) {
  int rc = 0;
  const json* a = answer(d, "nvmlDeviceValidateInforom", rc);
  return a == nullptr ? rc : a->get<int>();
}

} // extern "C"
