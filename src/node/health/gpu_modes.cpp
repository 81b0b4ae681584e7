#include "node/fact.hpp"
#include "node/health/device_facts.hpp"
#include "node/health/services.hpp"
#include "util/strings.hpp"

#include <array>
#include <map>
#include <optional>
#include <vector>

namespace envlock::node::health {

namespace {

constexpr unsigned long long k_nvml_value_not_available = ~0ULL;
constexpr unsigned long long k_bytes_per_mib = 1024ULL * 1024ULL;

// The most processes one GPU's list may hold; NVML reporting more is answering nonsense.
constexpr unsigned k_max_processes = 4096;

// The processes of one kind; nothing when NVML does not answer or answers nonsense (recorded in
// `d`, so that the rule fails for this GPU).
std::optional<std::vector<NvmlProcessInfo>>
nvml_list_processes(DeviceFacts& d, int (*fn)(NvmlDevice, unsigned*, NvmlProcessInfo*),
                    const char* call) {
  std::vector<NvmlProcessInfo> infos(64);
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto count = static_cast<unsigned>(infos.size());
    d.calling(call);
    const int rc = fn(d.device(), &count, infos.data());
    if (rc == k_nvml_insufficient_size && count > infos.size() && count <= k_max_processes) {
      infos.resize(count + 16);
      continue;
    }
    if (rc == k_nvml_insufficient_size || (rc == k_nvml_success && count > infos.size())) {
      d.nonsense(call, {"processes"},
                 "NVML reports " + std::to_string(count) + " processes for a list of " +
                     std::to_string(infos.size()) + " (at most " + std::to_string(k_max_processes) +
                     ")");
      return std::nullopt;
    }
    if (!d.answered(rc, call, {"processes"})) {
      return std::nullopt;
    }
    infos.resize(count);
    return infos;
  }
  d.answered(k_nvml_insufficient_size, call, {"processes"});
  return std::nullopt;
}

// A process name as text: control characters and bytes that are not UTF-8 written "\xNN" (a
// name is whatever bytes its process chose).
std::string name_text(std::string_view name) {
  std::string out;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f || c == '\\') {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[byte >> 4U];
      out += hex[byte & 0xFU];
    } else {
      out += c;
    }
  }
  return util::escape_invalid_utf8(out);
}

} // namespace

void read_modes(DeviceFacts& d) {
  const NvmlApi& n = d.api();
  int persistence = 0;
  if (d.bound(n.persistence, "nvmlDeviceGetPersistenceMode", {"persistence"}) &&
      d.answered(n.persistence(d.device(), &persistence), "nvmlDeviceGetPersistenceMode",
                 {"persistence"})) {
    d.set("persistence", enabled_word(persistence), "nvmlDeviceGetPersistenceMode");
  }
  unsigned current = 0;
  unsigned pending = 0;
  if (d.bound(n.mig_mode, "nvmlDeviceGetMigMode", {"mig.current", "mig.pending"}) &&
      d.answered(n.mig_mode(d.device(), &current, &pending), "nvmlDeviceGetMigMode",
                 {"mig.current", "mig.pending"})) {
    d.set("mig.current", enabled_word(static_cast<int>(current)), "nvmlDeviceGetMigMode");
    d.set("mig.pending", enabled_word(static_cast<int>(pending)), "nvmlDeviceGetMigMode");
  }
  int mode = 0;
  if (d.bound(n.compute_mode, "nvmlDeviceGetComputeMode", {"compute_mode"}) &&
      d.answered(n.compute_mode(d.device(), &mode), "nvmlDeviceGetComputeMode", {"compute_mode"})) {
    static const std::array<const char*, 4> modes = {"default", "exclusive_thread", "prohibited",
                                                     "exclusive_process"};
    d.set("compute_mode",
          mode >= 0 && mode < 4 ? std::string(modes.at(static_cast<std::size_t>(mode)))
                                : "unknown (" + std::to_string(mode) + ")",
          "nvmlDeviceGetComputeMode");
  }
  const char* inforom = "nvmlDeviceValidateInforom";
  if (d.bound(n.validate_inforom, inforom, {"inforom"})) {
    const int rc = n.validate_inforom(d.device());
    if (rc == k_nvml_corrupted_inforom) {
      d.set("inforom", "corrupted", inforom);
    } else if (d.answered(rc, inforom, {"inforom"})) {
      d.set("inforom", "valid", inforom);
    }
  }
}

void read_processes(DeviceFacts& d, const std::filesystem::path& root) {
  const NvmlApi& n = d.api();
  std::map<unsigned, json> by_pid;
  std::vector<std::string> sources;
  for (const auto& [type, call, fn] :
       {std::tuple{"compute", "nvmlDeviceGetComputeRunningProcesses_v3", n.compute_processes},
        std::tuple{"graphics", "nvmlDeviceGetGraphicsRunningProcesses_v3", n.graphics_processes}}) {
    if (!d.bound(fn, call, {"processes"})) {
      return;
    }
    const auto infos = nvml_list_processes(d, fn, call);
    if (!infos) {
      return;
    }
    sources.emplace_back(call);
    for (const auto& info : *infos) {
      json& p = by_pid[info.pid];
      p["pid"] = info.pid;
      p["type"] = p.contains("type") ? std::string("compute+graphics") : std::string(type);
      p["used_mib"] = info.used_gpu_memory == k_nvml_value_not_available
                          ? json(nullptr)
                          : json(info.used_gpu_memory / k_bytes_per_mib);
      std::string why;
      const auto comm = read_host_file(root, "/proc/" + std::to_string(info.pid) + "/comm", why);
      p["name"] = comm ? json(name_text(comm->substr(0, comm->find('\n')))) : json(nullptr);
      // Who it is: its owner and its parents (for --idle: the check's own processes are root's
      // and descend from the process the caller names), never its name.
      const auto uids = process_uids(root, static_cast<long>(info.pid));
      p["uid"] = uids ? json(uids->second) : json(nullptr);
      p["ancestors"] = process_ancestors(root, static_cast<long>(info.pid));
    }
  }
  json list = json::array();
  for (auto& [pid, p] : by_pid) {
    list.push_back(std::move(p));
  }
  d.set("processes", std::move(list), "nvmlDeviceGetComputeRunningProcesses_v3");
}

} // namespace envlock::node::health
