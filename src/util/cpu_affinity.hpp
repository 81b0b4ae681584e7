// Linux CPU lists ("0-3,8,10-11", as /sys/devices/.../local_cpulist writes them) and placing the
// calling thread on some CPUs, so that the memory it allocates comes from their memory node.
#pragma once

#include "util/result.hpp"

#include <string_view>
#include <vector>

namespace envlock::util {

// The CPUs of a list, sorted, without repeats. An input error quotes the list: "'0-x': not a
// CPU list".
Result<std::vector<int>> parse_cpu_list(std::string_view text);

// "0-3,8,10-11": the inverse of parse_cpu_list for a sorted list.
std::string cpu_list_text(const std::vector<int>& cpus);

// The CPUs this process may run on (sched_getaffinity).
Result<std::vector<int>> allowed_cpus();

// Places the calling thread on those of `cpus` the process may run on and returns them. Fails
// (environment error) when none is allowed ("none of CPUs 8-15 is allowed for this process
// (0-7)") or sched_setaffinity fails.
Result<std::vector<int>> place_this_thread(const std::vector<int>& cpus);

} // namespace envlock::util
