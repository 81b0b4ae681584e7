#include "node/health/xid_table.hpp"

#include <algorithm>

namespace envlock::node::health {

const std::vector<XidInfo>& xid_table() {
  static const std::vector<XidInfo> table = {
      {8, "GPU stopped processing", XidKind::application, "RESTART_APP"},
      {11, "Invalid or corrupted push buffer stream", XidKind::application, "RESTART_APP"},
      {13, "Graphics engine exception", XidKind::application, "RESTART_APP"},
      {31, "GPU memory page fault", XidKind::application, "RESTART_APP"},
      {43, "GPU stopped processing", XidKind::application, "RESTART_APP"},
      {45, "Preemptive cleanup, due to previous errors", XidKind::application, "WORKFLOW_XID_45"},
      {46, "GPU stopped processing", XidKind::reset_gpu, "RESET_GPU"},
      {48, "Double bit ECC error", XidKind::reset_gpu, "WORKFLOW_XID_48"},
      {62, "Internal micro-controller halt", XidKind::reset_gpu, "RESET_GPU"},
      {63, "Row remapping or page retirement recorded", XidKind::informational, "IGNORE"},
      {64, "Row remapping or page retirement failed", XidKind::reset_gpu, "RESET_GPU"},
      {69, "Graphics engine class error", XidKind::application, "RESTART_APP"},
      {74, "NVLink error", XidKind::reset_gpu, "WORKFLOW_NVLINK_ERR"},
      {79, "GPU has fallen off the bus", XidKind::reboot, "RESTART_BM"},
      {92, "High single-bit ECC error rate", XidKind::informational, "IGNORE"},
      {94, "Contained ECC error", XidKind::application, "RESTART_APP"},
      {95, "Uncontained ECC error", XidKind::reset_gpu, "RESET_GPU"},
      {109, "Context switch timeout", XidKind::reset_gpu, "RESET_GPU"},
      {119, "GSP RPC timeout", XidKind::reset_gpu, "RESET_GPU"},
      {120, "GSP error", XidKind::reset_gpu, "RESET_GPU"},
      {140, "Unrecovered ECC error", XidKind::reset_gpu, "RESET_GPU"},
      {143, "GPU initialization failure", XidKind::reset_gpu, "RESET_GPU"},
      {144, "NVLink error (SAW)", XidKind::reset_gpu, "WORKFLOW_NVLINK5_ERR"},
      {145, "NVLink error (RLW)", XidKind::reset_gpu, "WORKFLOW_NVLINK5_ERR"},
      {146, "NVLink error (TLW)", XidKind::reset_gpu, "WORKFLOW_NVLINK5_ERR"},
      {147, "NVLink error (TREX)", XidKind::reset_gpu, "WORKFLOW_NVLINK5_ERR"},
      {148, "NVLink error (NVLPW_CTRL)", XidKind::reset_gpu, "WORKFLOW_NVLINK5_ERR"},
      {149, "NVLink error (NETIR)", XidKind::reset_gpu, "WORKFLOW_NVLINK5_ERR"},
      {150, "NVLink error (MSE)", XidKind::reset_gpu, "WORKFLOW_NVLINK5_ERR"},
      {154, "GPU recovery action changed", XidKind::informational, "by its message"},
      {158, "GPU fatal timeout", XidKind::reset_gpu, "RESET_GPU"},
  };
  return table;
}

XidInfo describe_xid(long xid, std::string_view message) {
  const auto& table = xid_table();
  const auto it = std::find_if(table.begin(), table.end(),
                               [&](const XidInfo& info) { return info.xid == xid; });
  if (it == table.end()) {
    return {xid, "not in envlock's table; see NVIDIA's Xid catalog", XidKind::unknown, ""};
  }
  XidInfo info = *it;
  if (xid == 154) {
    // "GPU recovery action changed from 0x0 (None) to 0x1 (GPU Reset Required)": the new action.
    const auto to = message.rfind(" to ");
    if (to != std::string_view::npos) {
      message = message.substr(to);
    }
    if (message.find("Node Reboot Required") != std::string_view::npos) {
      info.kind = XidKind::reboot;
      info.meaning += ": node reboot required";
    } else if (message.find("GPU Reset Required") != std::string_view::npos ||
               message.find("Drain and Reset") != std::string_view::npos) {
      info.kind = XidKind::reset_gpu;
      info.meaning += ": GPU reset required";
    } else if (message.find("Drain P2P") != std::string_view::npos) {
      info.kind = XidKind::drain;
      info.meaning += ": drain peer-to-peer traffic";
    }
  }
  return info;
}

const char* to_string(XidKind kind) {
  switch (kind) {
  case XidKind::application:
    return "application";
  case XidKind::informational:
    return "informational";
  case XidKind::reset_gpu:
    return "reset the GPU";
  case XidKind::reboot:
    return "reboot";
  case XidKind::drain:
    return "drain";
  case XidKind::unknown:
    return "unknown";
  }
  return "unknown";
}

} // namespace envlock::node::health
