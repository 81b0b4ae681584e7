// Whether Fabric Manager (nv-fabricmanager) and the NVLink Subnet Manager (nvlsm) are running:
// a process of that name in /proc (its comm, which the kernel cuts to 15 bytes, or the first
// word of its command line), not only an installed binary.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace envlock::node::health {

// {"value": "running", "source": "/proc/PID/comm", "pid": PID} for the first such process (lowest
// PID); {"value": "not running", "source": "/proc"} when none; missing when /proc cannot be
// listed. `program` is the executable's name ("nv-fabricmanager").
nlohmann::json process_state(const std::filesystem::path& root, const std::string& program);

} // namespace envlock::node::health
