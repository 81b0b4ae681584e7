#include "verify/gpu/libraries.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <system_error>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

// site-packages folders under a Python environment prefix: PREFIX/lib/python3.*/site-packages.
void add_environment(const fs::path& prefix, std::vector<fs::path>& out) {
  std::error_code error;
  const fs::path lib = prefix / "lib";
  if (!fs::is_directory(lib, error)) {
    return;
  }
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(lib, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("python3") && fs::is_directory(entry.path() / "site-packages", error)) {
      found.push_back(entry.path() / "site-packages");
    }
  }
  std::sort(found.begin(), found.end());
  out.insert(out.end(), found.begin(), found.end());
}

// The environment prefix of the python3 found on PATH (its folder's parent), if any.
void add_path_python(std::vector<fs::path>& out) {
  const char* path = std::getenv("PATH"); // NOLINT(concurrency-mt-unsafe): read before threads
  if (path == nullptr) {
    return;
  }
  std::string_view rest(path);
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const fs::path dir(std::string(rest.substr(0, colon)));
    rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    std::error_code error;
    if (!dir.empty() && fs::exists(dir / "python3", error)) {
      add_environment(dir.parent_path(), out);
      return;
    }
  }
}

std::vector<fs::path> default_site_packages() {
  std::vector<fs::path> out;
  for (const char* variable : {"VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT"}) {
    const char* value = std::getenv(variable); // NOLINT(concurrency-mt-unsafe)
    if (value != nullptr && *value != '\0') {
      add_environment(value, out);
    }
  }
  add_environment("/opt/venv", out);
  add_path_python(out);
  return out;
}

} // namespace

std::vector<fs::path> python_library_dirs(const std::vector<fs::path>& site_packages) {
  const std::vector<fs::path> sites =
      site_packages.empty() ? default_site_packages() : site_packages;
  std::vector<fs::path> dirs;
  std::error_code error;
  for (const auto& site : sites) {
    std::vector<fs::path> nvidia;
    for (const auto& entry : fs::directory_iterator(site / "nvidia", error)) {
      if (fs::is_directory(entry.path() / "lib", error)) {
        nvidia.push_back(entry.path() / "lib");
      }
    }
    std::sort(nvidia.begin(), nvidia.end());
    dirs.insert(dirs.end(), nvidia.begin(), nvidia.end());
    if (fs::is_directory(site / "torch" / "lib", error)) {
      dirs.push_back(site / "torch" / "lib");
    }
  }
  std::vector<fs::path> unique;
  for (const auto& dir : dirs) {
    if (std::find(unique.begin(), unique.end(), dir) == unique.end()) {
      unique.push_back(dir);
    }
  }
  return unique;
}

std::vector<std::string> library_candidates(const std::vector<fs::path>& dirs,
                                            const std::vector<std::string>& sonames) {
  std::vector<std::string> candidates;
  std::error_code error;
  for (const auto& dir : dirs) {
    for (const auto& soname : sonames) {
      if (fs::exists(dir / soname, error)) {
        candidates.push_back((dir / soname).string());
      }
    }
  }
  candidates.insert(candidates.end(), sonames.begin(), sonames.end());
  return candidates;
}

} // namespace envlock::verify
