// The kernel log since boot and the XID errors the NVIDIA driver wrote to it. Read from
// /dev/kmsg (records "PRIORITY,SEQUENCE,MICROSECONDS,FLAGS;MESSAGE", PRIORITY = facility * 8 +
// level, continuation lines start with a space), readable by root; else from `dmesg --decode`
// ("FACILITY:LEVEL : [SECONDS] MESSAGE"). The driver writes "NVRM: Xid (PCI:0000:3b:00): 79,
// pid=..., GPU has fallen off the bus." An XID counts by its source, not its text: a record of
// facility kern (0), which no program's write to /dev/kmsg can have, whose message begins with
// the driver's prefix (docs/manual/trust.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::node::health {

enum class KernelLogFormat { kmsg, dmesg };

struct KernelLog {
  std::string text;
  KernelLogFormat format = KernelLogFormat::kmsg;
  std::string source;  // "/dev/kmsg" or "dmesg"
  std::string missing; // why neither could be read ("" when one was)
  // Neither could be read for want of privilege (EPERM/EACCES on /dev/kmsg, dmesg "Operation not
  // permitted") and the reader is not root, which says nothing of the node. Never set for root:
  // root refused (no CAP_SYSLOG) is a kernel log that cannot be read.
  bool denied = false;
};

enum class RunDmesg { yes, no };

// `root`/dev/kmsg (read to its end without waiting), else `dmesg` when `dmesg` is yes. Never
// fails: `missing` joins both reasons ("/dev/kmsg: Permission denied; dmesg: exit status 1").
KernelLog read_kernel_log(const std::filesystem::path& root, RunDmesg dmesg);

struct XidEvent {
  long xid = 0;
  std::string pci;               // "0000:3b:00" (domain:bus:device), lower case
  std::optional<double> seconds; // since boot
  std::string message;           // the rest of the line after the number, at most 160 bytes
};

// The XIDs of a kernel log, in its order: the kernel's own records (facility 0) whose message
// begins "NVRM: Xid (PCI:ADDRESS): NUMBER". The message is valid UTF-8 (invalid bytes as "\xNN").
std::vector<XidEvent> parse_xids(const KernelLog& log);

} // namespace envlock::node::health
