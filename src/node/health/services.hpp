// Whether Fabric Manager (nv-fabricmanager) and the NVLink Subnet Manager (nvlsm) are running. A
// name is never an identity (any user may name a process so): a service runs when one of its
// processes is root's (real and effective uid 0, /proc/PID/status) and its executable
// (/proc/PID/exe, followed to its file) is the installed binary: a file of the owner of the root
// folder ("/" is root's) that no one else can write, in folders alike, none a symbolic link
// (usr/bin, usr/sbin, usr/local/bin, usr/local/sbin, opt/nvidia/nvlsm/sbin, opt/nvidia/nvlsm/bin
// under the root), the same file by device and inode. One pass over /proc.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::node::health {

// For each of `programs` ("nv-fabricmanager"): {"value": "running", "source": "/proc/PID/exe",
// "pid": PID, "binary": "/usr/bin/nv-fabricmanager"} for its first process (lowest PID);
// {"value": "not running", "source": "/proc"} when none; missing when /proc cannot be listed, or
// when a root process's executable cannot be read and none was found (a reader that is not
// root).
std::map<std::string, nlohmann::json> process_states(const std::filesystem::path& root,
                                                     const std::vector<std::string>& programs);

// The real and effective uid of process `pid` from `root`/proc/PID/status ("Uid:\tR\tE\tS\tF");
// nothing when it cannot be read.
std::optional<std::pair<long, long>> process_uids(const std::filesystem::path& root, long pid);

// The parent process ids of `pid`, nearest first, from `root`/proc/PID/stat (the field after the
// last ')', so that no process name can shift it), at most 64; stops where one cannot be read.
std::vector<long> process_ancestors(const std::filesystem::path& root, long pid);

} // namespace envlock::node::health
