#include "node/health/services.hpp"

#include "node/fact.hpp"
#include "node/health/value.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <system_error>

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

// Whether the process whose comm is `comm` runs `program`: the comm is the program's name, cut to
// 15 bytes; a cut name is confirmed by the command line's first word.
bool runs_program(const fs::path& root, const std::string& base, std::string_view comm,
                  const std::string& program) {
  if (comm != std::string_view(program).substr(0, k_comm_length)) {
    return false;
  }
  if (program.size() <= k_comm_length) {
    return true;
  }
  std::string why;
  const auto cmdline = read_host_file(root, base + "/cmdline", why);
  return cmdline && fs::path(cmdline->substr(0, cmdline->find('\0'))).filename() == program;
}

} // namespace

std::map<std::string, json> process_states(const fs::path& root,
                                           const std::vector<std::string>& programs) {
  std::map<std::string, json> out;
  std::error_code ec;
  const auto pids = process_ids(root / "proc", ec);
  for (const auto& program : programs) {
    out[program] =
        ec ? missing_value("/proc", "/proc: " + ec.message()) : value_fact("not running", "/proc");
  }
  if (ec) {
    return out;
  }
  std::size_t found = 0;
  for (const long pid : pids) {
    const std::string base = "/proc/" + std::to_string(pid);
    std::string why;
    const auto comm = read_host_file(root, base + "/comm", why);
    if (!comm) {
      continue; // the process ended meanwhile
    }
    const std::string_view name = util::trim(*comm);
    for (const auto& program : programs) {
      if (out[program]["value"] == "not running" && runs_program(root, base, name, program)) {
        out[program] = value_fact("running", base + "/comm");
        out[program]["pid"] = pid;
        ++found;
      }
    }
    if (found == programs.size()) {
      break;
    }
  }
  return out;
}

} // namespace envlock::node::health
