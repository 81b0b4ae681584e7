// Which XIDs are faults of the node and what an operator does about them. The kinds follow the
// "Resolution Bucket (Immediate Action)" column of NVIDIA's Xid catalog for Ampere and newer GPUs
// (docs.nvidia.com/deploy/xid-errors, "Analyzing Xid Errors with the Xid Catalog"); the table is
// docs/manual/health.md's "XIDs" section, word for word.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace envlock::node::health {

enum class XidKind {
  application,   // RESTART_APP: the application's fault; the node is fine (warn)
  informational, // IGNORE: a record of something handled (reported, not judged)
  reset_gpu,     // RESET_GPU and the workflows that reset: drain, reset the GPU (fail)
  reboot,        // RESTART_BM: drain, reboot the node (fail)
  drain,         // not a reset or a reboot, but the node must not run jobs (fail)
  unknown        // not in the table: drain, look it up in NVIDIA's catalog (fail)
};

struct XidInfo {
  long xid = 0;
  std::string meaning; // "GPU has fallen off the bus"
  XidKind kind = XidKind::unknown;
  std::string nvidia; // the catalog's immediate action ("RESTART_BM"), "" when unknown
};

// What `xid` means. XID 154 (GPU recovery action changed) is judged by its message: "Node Reboot
// Required" reboots, "GPU Reset Required" and "Drain and Reset" reset, "Drain P2P" drains, "None"
// is informational.
XidInfo describe_xid(long xid, std::string_view message);

// The table, in XID order (for the manual and its test).
const std::vector<XidInfo>& xid_table();

// "application" / "informational" / "reset the GPU" / "reboot" / "drain" / "unknown"
const char* to_string(XidKind kind);

} // namespace envlock::node::health
