#include "node/health/services.hpp"

#include "node/fact.hpp"
#include "node/health/value.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <system_error>
#include <vector>

namespace envlock::node::health {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t k_comm_length = 15; // TASK_COMM_LEN - 1

std::vector<long> process_ids(const fs::path& proc, std::error_code& ec) {
  std::vector<long> pids;
  for (fs::directory_iterator it(proc, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos &&
        name.size() < 10) {
      pids.push_back(std::stol(name));
    }
  }
  std::sort(pids.begin(), pids.end());
  return pids;
}

bool process_is(const fs::path& root, long pid, const std::string& program) {
  std::string why;
  const std::string base = "/proc/" + std::to_string(pid);
  if (const auto comm = read_host_file(root, base + "/comm", why)) {
    if (util::trim(*comm) == program.substr(0, k_comm_length)) {
      return true;
    }
  }
  if (const auto cmdline = read_host_file(root, base + "/cmdline", why)) {
    const std::string first = cmdline->substr(0, cmdline->find('\0'));
    return fs::path(first).filename() == program;
  }
  return false;
}

} // namespace

json process_state(const fs::path& root, const std::string& program) {
  std::error_code ec;
  const auto pids = process_ids(root / "proc", ec);
  if (ec) {
    return missing_value("/proc", "/proc: " + ec.message());
  }
  for (const long pid : pids) {
    if (process_is(root, pid, program)) {
      json out = value_fact("running", "/proc/" + std::to_string(pid) + "/comm");
      out["pid"] = pid;
      return out;
    }
  }
  return value_fact("not running", "/proc");
}

} // namespace envlock::node::health
