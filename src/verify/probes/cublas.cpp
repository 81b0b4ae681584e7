#include "verify/probes/cublas.hpp"

#include "util/json.hpp"
#include "verify/probes/torch_install.hpp"
#include "verify/probes/versions.hpp"

#include <algorithm>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t k_cublas_version_json_limit = 1 << 20;

std::optional<LibraryFound> cublas_from_version_json(const RunContext& context) {
  const fs::path path = context.at("/usr/local/cuda/version.json");
  const auto text = context.read(path, k_cublas_version_json_limit);
  if (!text) {
    return std::nullopt;
  }
  const auto json = util::parse_json(*text, context.shown(path));
  if (!json || !json->is_object()) {
    return std::nullopt;
  }
  const auto it = json->find("libcublas");
  if (it == json->end() || !it->is_object() || !it->contains("version") ||
      !(*it)["version"].is_string()) {
    return std::nullopt;
  }
  return LibraryFound{(*it)["version"].get<std::string>(), context.shown(path) + " (libcublas)"};
}

std::optional<LibraryFound> cublas_from_file_names(const RunContext& context,
                                                   const std::vector<fs::path>& dirs) {
  for (const auto& dir : dirs) {
    std::vector<std::string> found;
    for (const auto& entry : context.list(dir)) {
      const auto version = version_from_file_name(entry.name, "libcublas.so.");
      if (version && std::count(version->begin(), version->end(), '.') >= 1) {
        found.push_back(entry.name);
      }
    }
    if (!found.empty()) {
      std::sort(found.begin(), found.end());
      return LibraryFound{*version_from_file_name(found.back(), "libcublas.so."),
                          "file name " + context.shown(dir / found.back())};
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<LibraryFound> find_cublas(const RunContext& context) {
  if (auto found = cublas_from_version_json(context)) {
    return found;
  }
  std::vector<fs::path> dirs;
  if (const auto torch = find_torch(context, context.python())) {
    dirs.push_back(torch->dir.parent_path() / "nvidia" / "cublas" / "lib");
  }
  dirs.insert(dirs.end(), context.library_dirs().begin(), context.library_dirs().end());
  return cublas_from_file_names(context, dirs);
}

} // namespace envlock::verify
