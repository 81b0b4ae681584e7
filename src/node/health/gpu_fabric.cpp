#include "node/health/device_facts.hpp"

#include <array>
#include <cstdio>

namespace envlock::node::health {

namespace {

constexpr unsigned k_max_nvlinks = 36; // NVML_NVLINK_MAX_LINKS in NVML 13
constexpr int k_nvml_argument_version_mismatch = 25;

std::string fabric_state_name(unsigned char state) {
  static const std::array<const char*, 4> names = {"not supported", "not started", "in progress",
                                                   "completed"};
  return state < names.size() ? names.at(state) : "unknown (" + std::to_string(state) + ")";
}

std::string fabric_uuid_text(const unsigned char* bytes) {
  std::string out;
  for (int i = 0; i < 16; ++i) {
    std::array<char, 3> hex{};
    (void)std::snprintf(hex.data(), hex.size(), "%02x", bytes[i]);
    out += hex.data();
    if (i == 3 || i == 5 || i == 7 || i == 9) {
      out += '-';
    }
  }
  return out;
}

void set_fabric_facts(DeviceFacts& d, const NvmlSession& nvml, const char* call,
                      unsigned char state, int status, unsigned clique, const unsigned char* uuid) {
  d.set("fabric.state", fabric_state_name(state), call);
  if (state == 3) {
    d.set("fabric.status", status == k_nvml_success ? "success" : nvml.error_text(call, status),
          call);
    d.set("fabric.clique", clique, call);
    d.set("fabric.cluster_uuid", fabric_uuid_text(uuid), call);
  }
}

} // namespace

void read_nvlink(DeviceFacts& d) {
  const char* call = "nvmlDeviceGetNvLinkState";
  if (!d.bound(d.api().nvlink_state, call, {"nvlink.links"})) {
    return;
  }
  json links = json::array();
  for (unsigned link = 0; link < k_max_nvlinks; ++link) {
    int active = 0;
    const int rc = d.api().nvlink_state(d.device(), link, &active);
    if (rc == k_nvml_invalid_argument) {
      break; // past the GPU's last link
    }
    if (rc == k_nvml_not_supported) {
      continue; // no such link on this GPU
    }
    if (!d.answered(rc, call, {"nvlink.links"})) {
      return;
    }
    links.push_back({{"link", link}, {"state", active != 0 ? "up" : "down"}});
  }
  d.set("nvlink.links", std::move(links), call);
}

void read_fabric(DeviceFacts& d, const NvmlSession& nvml) {
  const NvmlApi& n = d.api();
  if (n.fabric_info_v != nullptr) {
    const char* call = "nvmlDeviceGetGpuFabricInfoV";
    NvmlFabricInfoV3 info{};
    info.version = k_nvml_fabric_info_v3;
    const int rc = n.fabric_info_v(d.device(), &info);
    if (rc == k_nvml_not_supported) {
      d.set("fabric.state", "not supported", call);
      return;
    }
    if (rc != k_nvml_argument_version_mismatch || n.fabric_info == nullptr) {
      if (d.answered(rc, call, {"fabric.state"})) {
        set_fabric_facts(d, nvml, call, info.state, info.status, info.clique_id, info.cluster_uuid);
        static const std::array<const char*, 4> summaries = {"not supported", "healthy",
                                                             "unhealthy", "limited capacity"};
        if (info.state == 3 && info.health_summary < summaries.size()) {
          d.set("fabric.health_summary", summaries.at(info.health_summary), call);
        }
      }
      return;
    }
  }
  const char* call = "nvmlDeviceGetGpuFabricInfo";
  NvmlFabricInfo info{};
  if (!d.bound(n.fabric_info, call, {"fabric.state"})) {
    return;
  }
  const int rc = n.fabric_info(d.device(), &info);
  if (rc == k_nvml_not_supported) {
    d.set("fabric.state", "not supported", call);
  } else if (d.answered(rc, call, {"fabric.state"})) {
    set_fabric_facts(d, nvml, call, info.state, info.status, info.clique_id, info.cluster_uuid);
  }
}

} // namespace envlock::node::health
