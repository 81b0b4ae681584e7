// Whether Fabric Manager (nv-fabricmanager) and the NVLink Subnet Manager (nvlsm) are running:
// a process of that name in /proc (its comm, which the kernel cuts to 15 bytes, confirmed by the
// first word of its command line when cut), not only an installed binary. One pass over /proc.
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::node::health {

// For each of `programs` ("nv-fabricmanager"): {"value": "running", "source": "/proc/PID/comm",
// "pid": PID} for its first process (lowest PID); {"value": "not running", "source": "/proc"}
// when none; missing when /proc cannot be listed.
std::map<std::string, nlohmann::json> process_states(const std::filesystem::path& root,
                                                     const std::vector<std::string>& programs);

} // namespace envlock::node::health
