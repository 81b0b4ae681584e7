#include "node/health/services.hpp"

#include "node/fact.hpp"
#include "node/health/value.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <cerrno>
#include <optional>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace envlock::node::health {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t k_max_ancestors = 64;

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

// Whether `path` (below `root`) and every folder from the root down to it belongs to the owner of
// the root folder (root, on a node: "/" is root's) and is writable by no one else, none of them a
// symbolic link.
bool root_owned_path(const fs::path& root, const fs::path& relative) {
  struct stat top {};
  if (::stat(root.c_str(), &top) != 0) {
    return false;
  }
  fs::path at = root;
  std::vector<fs::path> parts(relative.begin(), relative.end());
  for (const auto& part : parts) {
    at /= part;
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0 || S_ISLNK(st.st_mode) || st.st_uid != top.st_uid ||
        (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
      return false;
    }
  }
  return true;
}

struct Installed {
  std::string path; // "/usr/bin/nv-fabricmanager"
  dev_t dev = 0;
  ino_t ino = 0;
};

// The installed binary of `program`: the first of the system folders holding it as a regular
// file that root owns and no one else can write, in folders alike.
std::optional<Installed> installed_binary(const fs::path& root, const std::string& program) {
  for (const char* folder : {"usr/bin", "usr/sbin", "usr/local/bin", "usr/local/sbin",
                             "opt/nvidia/nvlsm/sbin", "opt/nvidia/nvlsm/bin"}) {
    const fs::path relative = fs::path(folder) / program;
    struct stat st {};
    if (::lstat((root / relative).c_str(), &st) != 0 || !S_ISREG(st.st_mode) ||
        !root_owned_path(root, relative)) {
      continue;
    }
    return Installed{"/" + relative.string(), st.st_dev, st.st_ino};
  }
  return std::nullopt;
}

} // namespace

std::optional<std::pair<long, long>> process_uids(const fs::path& root, long pid) {
  std::string why;
  const auto status = read_host_file(root, "/proc/" + std::to_string(pid) + "/status", why);
  if (!status) {
    return std::nullopt;
  }
  for (const auto& line : util::split(*status, '\n')) {
    if (line.rfind("Uid:", 0) != 0) {
      continue;
    }
    std::vector<long> ids;
    for (const auto& word : util::split(std::string(util::trim(line.substr(4))), '\t')) {
      const std::string w(util::trim(word));
      if (w.empty() || w.size() > 10 || w.find_first_not_of("0123456789") != std::string::npos) {
        return std::nullopt;
      }
      ids.push_back(std::stol(w));
    }
    if (ids.size() < 2) {
      return std::nullopt;
    }
    return std::pair{ids[0], ids[1]};
  }
  return std::nullopt;
}

std::vector<long> process_ancestors(const fs::path& root, long pid) {
  std::vector<long> out;
  long at = pid;
  while (out.size() < k_max_ancestors) {
    std::string why;
    const auto stat = read_host_file(root, "/proc/" + std::to_string(at) + "/stat", why);
    if (!stat) {
      break;
    }
    // "PID (COMM) STATE PPID ...": COMM may hold ')' and spaces; the fields follow the last ')'.
    const auto close = stat->rfind(')');
    if (close == std::string::npos) {
      break;
    }
    std::vector<std::string> fields;
    for (const auto& f : util::split(stat->substr(close + 1), ' ')) {
      if (!f.empty()) {
        fields.push_back(f);
      }
    }
    if (fields.size() < 2 || fields[1].empty() || fields[1].size() > 10 ||
        fields[1].find_first_not_of("0123456789") != std::string::npos) {
      break;
    }
    const long parent = std::stol(fields[1]);
    if (parent <= 0 || std::find(out.begin(), out.end(), parent) != out.end() || parent == pid) {
      break;
    }
    out.push_back(parent);
    at = parent;
  }
  return out;
}

std::map<std::string, json> process_states(const fs::path& root,
                                           const std::vector<std::string>& programs) {
  std::map<std::string, json> out;
  std::error_code ec;
  const auto pids = process_ids(root / "proc", ec);
  std::map<std::string, std::optional<Installed>> binaries;
  for (const auto& program : programs) {
    binaries[program] = installed_binary(root, program);
    out[program] =
        ec ? missing_value("/proc", "/proc: " + ec.message()) : value_fact("not running", "/proc");
    if (!ec && !binaries[program]) {
      out[program]["not_installed"] = true;
    }
  }
  if (ec) {
    return out;
  }
  std::size_t found = 0;
  std::size_t unreadable = 0; // root's processes whose executable could not be read
  for (const long pid : pids) {
    const auto uids = process_uids(root, pid);
    if (!uids || uids->first != 0 || uids->second != 0) {
      continue; // ended meanwhile, or not root's: never a service, whatever its name
    }
    const std::string exe = "/proc/" + std::to_string(pid) + "/exe";
    struct stat st {};
    if (::stat((root / exe.substr(1)).c_str(), &st) != 0) {
      // Root reads every process's executable; a reader that is not root cannot tell.
      unreadable += (errno == EACCES || errno == EPERM) && ::geteuid() != 0 ? 1 : 0;
      continue;
    }
    for (const auto& program : programs) {
      const auto& bin = binaries[program];
      if (bin && out[program]["value"] == "not running" && st.st_dev == bin->dev &&
          st.st_ino == bin->ino) {
        out[program] = value_fact("running", exe);
        out[program]["pid"] = pid;
        out[program]["binary"] = bin->path;
        ++found;
      }
    }
    if (found == programs.size()) {
      break;
    }
  }
  for (const auto& program : programs) {
    if (unreadable > 0 && out[program]["value"] == "not running" && binaries[program]) {
      out[program] =
          missing_value("/proc", "/proc/PID/exe of " + std::to_string(unreadable) +
                                     " root processes cannot be read (not root): " + program +
                                     " cannot be told from its name");
    }
  }
  return out;
}

} // namespace envlock::node::health
