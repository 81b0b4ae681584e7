#include "verify/probes/python_env.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <system_error>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

bool is_dir(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

// Sorted children of `dir` whose names start with `prefix` and that are folders.
std::vector<fs::path> subdirs(const fs::path& dir, std::string_view prefix) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 && is_dir(entry.path())) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void add_existing(std::vector<fs::path>& out, const fs::path& dir) {
  if (is_dir(dir) && std::find(out.begin(), out.end(), dir) == out.end()) {
    out.push_back(dir);
  }
}

std::vector<fs::path> system_sites(const RunContext& context) {
  std::vector<fs::path> out;
  for (const auto& python : subdirs(context.at("/usr/local/lib"), "python3")) {
    add_existing(out, python / "site-packages");
    add_existing(out, python / "dist-packages");
  }
  add_existing(out, context.at("/usr/lib/python3/dist-packages"));
  for (const auto& python : subdirs(context.at("/usr/lib"), "python3.")) {
    add_existing(out, python / "site-packages");
  }
  return out;
}

// A virtual environment's site-packages folders and whether it sees the system's.
bool venv_sites(const fs::path& venv, std::vector<fs::path>& out) {
  for (const char* lib : {"lib", "lib64"}) {
    for (const auto& python : subdirs(venv / lib, "python3")) {
      add_existing(out, python / "site-packages");
    }
  }
  auto cfg = util::read_file_limited(venv / "pyvenv.cfg", 1 << 16);
  if (!cfg) {
    return false;
  }
  for (const auto& line : util::split(*cfg, '\n')) {
    const auto eq = line.find('=');
    if (eq != std::string::npos &&
        util::trim(std::string_view(line).substr(0, eq)) == "include-system-site-packages") {
      return util::to_lower(util::trim(std::string_view(line).substr(eq + 1))) == "true";
    }
  }
  return false;
}

// Core metadata headers stop at the first blank line.
void read_metadata(const fs::path& dist_info, Distribution& dist) {
  auto text = util::read_file_limited(dist_info / "METADATA", 16 << 20);
  if (!text) {
    return;
  }
  for (const auto& line : util::split(*text, '\n')) {
    const std::string_view view = util::trim(line);
    if (view.empty()) {
      break;
    }
    if (view.rfind("Name:", 0) == 0) {
      dist.name = std::string(util::trim(view.substr(5)));
    } else if (view.rfind("Version:", 0) == 0) {
      dist.version = std::string(util::trim(view.substr(8)));
    }
  }
}

} // namespace

std::string pep503_name(std::string_view name) {
  std::string out;
  bool in_run = false;
  for (const char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (!in_run) {
        out += '-';
      }
      in_run = true;
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      in_run = false;
    }
  }
  return out;
}

SitePackages find_site_packages(const RunContext& context) {
  SitePackages sites;
  if (!context.options().site_packages.empty()) {
    for (const auto& dir : context.options().site_packages) {
      add_existing(sites.own, dir);
    }
    sites.source = "--site-packages";
    return sites;
  }
  std::vector<std::pair<std::string, fs::path>> venvs;
  for (const char* name : {"UV_PROJECT_ENVIRONMENT", "VIRTUAL_ENV"}) {
    if (auto value = context.env(name); value && !value->empty() && value->front() == '/') {
      venvs.emplace_back(name, context.at(*value));
    }
  }
  venvs.emplace_back("/opt/venv", context.at("/opt/venv"));
  for (const auto& [source, venv] : venvs) {
    std::vector<fs::path> own;
    const bool include_system = venv_sites(venv, own);
    if (!own.empty()) {
      sites.own = std::move(own);
      sites.source = source;
      if (include_system) {
        sites.inherited = system_sites(context);
      }
      return sites;
    }
  }
  sites.own = system_sites(context);
  sites.source = "system";
  return sites;
}

std::map<std::string, Distribution> scan_distributions(const SitePackages& sites) {
  std::map<std::string, Distribution> out;
  auto scan = [&](const fs::path& site, bool inherited) {
    std::vector<fs::path> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(site, ec)) {
      if (entry.path().extension() == ".dist-info" && is_dir(entry.path())) {
        found.push_back(entry.path());
      }
    }
    std::sort(found.begin(), found.end());
    for (const auto& dist_info : found) {
      Distribution dist;
      dist.dist_info = dist_info;
      dist.site = site;
      dist.inherited = inherited;
      read_metadata(dist_info, dist);
      const std::string stem = dist_info.stem().string();
      const auto dash = stem.find('-');
      if (dist.name.empty()) {
        dist.name = stem.substr(0, dash);
      }
      if (dist.version.empty() && dash != std::string::npos) {
        dist.version = stem.substr(dash + 1);
      }
      dist.key = pep503_name(dist.name);
      out.emplace(dist.key, std::move(dist));
    }
  };
  for (const auto& site : sites.own) {
    scan(site, false);
  }
  for (const auto& site : sites.inherited) {
    scan(site, true);
  }
  return out;
}

} // namespace envlock::verify
