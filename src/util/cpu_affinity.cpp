#include "util/cpu_affinity.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <iterator>
#include <sched.h>
#include <string>

namespace envlock::util {

namespace {

// CPU numbers sched_*affinity can express in a static cpu_set_t.
constexpr int k_max_cpu = CPU_SETSIZE - 1;

bool parse_cpu(std::string_view text, int& cpu) {
  const char* end = text.data() + text.size();
  return !text.empty() && std::from_chars(text.data(), end, cpu).ptr == end && cpu >= 0 &&
         cpu <= k_max_cpu;
}

} // namespace

Result<std::vector<int>> parse_cpu_list(std::string_view text) {
  const std::string_view list = trim(text);
  const auto bad = [&]() { return input_error("'" + std::string(list) + "': not a CPU list"); };
  std::vector<int> cpus;
  if (list.empty()) {
    return cpus;
  }
  for (const auto& item : split(list, ',')) {
    const auto dash = item.find('-');
    int first = 0;
    int last = 0;
    if (!parse_cpu(std::string_view(item).substr(0, dash), first)) {
      return bad();
    }
    last = first;
    if (dash != std::string::npos && !parse_cpu(std::string_view(item).substr(dash + 1), last)) {
      return bad();
    }
    if (last < first) {
      return bad();
    }
    for (int cpu = first; cpu <= last; ++cpu) {
      cpus.push_back(cpu);
    }
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::string cpu_list_text(const std::vector<int>& cpus) {
  std::string text;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) {
      ++j;
    }
    text += (text.empty() ? "" : ",") + std::to_string(cpus[i]);
    if (j > i) {
      text += "-" + std::to_string(cpus[j]);
    }
    i = j + 1;
  }
  return text;
}

Result<std::vector<int>> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) {
    return env_error(std::string("sched_getaffinity: ") + std::strerror(errno));
  }
  std::vector<int> cpus;
  for (int cpu = 0; cpu <= k_max_cpu; ++cpu) {
    if (CPU_ISSET(cpu, &set)) {
      cpus.push_back(cpu);
    }
  }
  return cpus;
}

Result<std::vector<int>> place_this_thread(const std::vector<int>& cpus) {
  ENVLOCK_TRY_ASSIGN(const std::vector<int> allowed, allowed_cpus());
  std::vector<int> wanted = cpus;
  std::sort(wanted.begin(), wanted.end());
  std::vector<int> placed;
  std::set_intersection(wanted.begin(), wanted.end(), allowed.begin(), allowed.end(),
                        std::back_inserter(placed));
  if (placed.empty()) {
    return env_error("none of CPUs " + cpu_list_text(wanted) + " is allowed for this process (" +
                     cpu_list_text(allowed) + ")");
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  for (const int cpu : placed) {
    CPU_SET(cpu, &set);
  }
  // The calling thread alone (pid 0 is the calling thread for sched_setaffinity).
  if (::sched_setaffinity(0, sizeof set, &set) != 0) {
    return env_error(std::string("sched_setaffinity: ") + std::strerror(errno));
  }
  return placed;
}

} // namespace envlock::util
