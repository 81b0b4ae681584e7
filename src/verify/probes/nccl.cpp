#include "util/dl.hpp"
#include "util/strings.hpp"
#include "verify/probes/file_scan.hpp"
#include "verify/probes/probes.hpp"
#include "verify/probes/python_env.hpp"
#include "verify/probes/torch_install.hpp"
#include "verify/probes/versions.hpp"

#include <algorithm>
#include <optional>
#include <system_error>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_soname = "libnccl.so.2";
constexpr const char* k_marker = "NCCL version ";

struct NcclFound {
  std::string version;
  std::string path;   // shown path of the file
  std::string method; // "ncclGetVersion", "version string"
  std::string how;    // how this file was chosen
  std::string error;  // why the file chosen could not be read ("PATH: is a FIFO, ...")
};

nlohmann::json to_json(const NcclFound& found) {
  nlohmann::json out = {{"version", found.version},
                        {"path", found.path},
                        {"method", found.method},
                        {"how", found.how}};
  if (!found.error.empty()) {
    out["error"] = found.error;
  }
  return out;
}

// The version string in `file`; a file that is there but cannot be read is said so.
std::optional<NcclFound> by_version_string(const RunContext& context, const fs::path& file) {
  auto fd = context.open_regular(file);
  if (!fd) {
    if (context.is_missing(file)) {
      return std::nullopt;
    }
    return NcclFound{"", context.shown(file), "", "", fd.error().message};
  }
  auto text = find_text_after(fd->get(), context.shown(file), k_marker);
  if (!text) {
    return NcclFound{"", context.shown(file), "", "", text.error().message};
  }
  if (!text->has_value()) {
    return std::nullopt;
  }
  return NcclFound{strip_build_suffix(**text), context.shown(file),
                   "version string \"" + std::string(k_marker) + **text + "\"", "", ""};
}

// Loads `name` (a soname or a host path) and asks it for its version; offline, or when it does
// not load, reads the version string of the file instead.
std::optional<NcclFound> probe_library(const RunContext& context, const std::string& name,
                                       const std::optional<fs::path>& file) {
  if (context.mode() == Mode::live) {
    if (auto lib = util::dl_open({name})) {
      auto get_version = util::dl_sym<int (*)(int*)>(*lib, "ncclGetVersion");
      int code = 0;
      if (get_version && (*get_version)(&code) == 0) {
        return NcclFound{nccl_version_text(code), util::dl_path(*lib), "ncclGetVersion", "", ""};
      }
    }
  }
  if (file) {
    return by_version_string(context, context.resolve(*file));
  }
  return std::nullopt;
}

std::optional<NcclFound> system_nccl(const RunContext& context) {
  const auto file = context.find_library(k_soname);
  if (context.mode() == Mode::live) {
    if (auto found = probe_library(context, k_soname, std::nullopt)) {
      found->how = "found by the dynamic linker";
      return found;
    }
  }
  if (!file) {
    return std::nullopt;
  }
  auto found = probe_library(context, file->string(), file);
  if (found) {
    found->how = "found in " + context.shown(file->parent_path());
  }
  return found;
}

// The folders searched before the system's for libtorch_cuda.so's NEEDED entries:
// LD_LIBRARY_PATH (live), then its RUNPATH with $ORIGIN expanded.
std::vector<fs::path> torch_search_dirs(const RunContext& context, const fs::path& torch_lib,
                                        const ElfDynamic& elf) {
  std::vector<fs::path> dirs;
  if (auto ld_path = context.env("LD_LIBRARY_PATH"); ld_path && context.mode() == Mode::live) {
    for (const auto& dir : util::split(*ld_path, ':')) {
      if (!dir.empty()) {
        dirs.emplace_back(dir);
      }
    }
  }
  const std::string origin = torch_lib.parent_path().string();
  for (const auto& entry : elf.runpath) {
    std::string dir =
        util::replace_all(util::replace_all(entry, "${ORIGIN}", origin), "$ORIGIN", origin);
    dirs.push_back(entry.find("ORIGIN") != std::string::npos ? fs::path(dir) : context.at(dir));
  }
  return dirs;
}

// The NCCL PyTorch loads: from libtorch_cuda.so's search path (pip wheels: nvidia/nccl/lib), the
// system's (NGC builds), or linked into libtorch_cuda.so itself.
std::optional<NcclFound> torch_nccl(const RunContext& context, const fs::path& torch_dir,
                                    const std::optional<NcclFound>& system) {
  const fs::path torch_lib = torch_dir / "lib" / "libtorch_cuda.so";
  auto fd = context.open_regular(torch_lib);
  if (!fd) {
    return std::nullopt;
  }
  auto elf = read_elf_dynamic(fd->get(), context.shown(torch_lib));
  if (!elf) {
    return std::nullopt;
  }
  if (std::find(elf->needed.begin(), elf->needed.end(), k_soname) == elf->needed.end()) {
    auto found = by_version_string(context, torch_lib);
    if (found) {
      found->how = "linked statically into libtorch_cuda.so";
    }
    return found;
  }
  for (const auto& dir : torch_search_dirs(context, torch_lib, *elf)) {
    const fs::path candidate = dir / k_soname;
    if (context.stat(candidate) || !context.is_missing(candidate)) {
      auto found = probe_library(context, candidate.string(), candidate);
      if (found) {
        found->how = "libtorch_cuda.so needs libnccl.so.2, found in " + context.shown(dir);
      }
      return found;
    }
  }
  if (system) {
    NcclFound found = *system;
    found.how = "libtorch_cuda.so needs libnccl.so.2, " + system->how;
    return found;
  }
  return std::nullopt;
}

} // namespace

std::vector<CheckResult> probe_nccl(const RunContext& context) {
  const std::string id = "nccl.version";
  const std::string title = "NCCL library loaded";
  const std::string& expected = context.lock().expect.nccl;
  const auto system = system_nccl(context);
  std::optional<NcclFound> torch;
  if (auto install = find_torch(context, context.python())) {
    torch = torch_nccl(context, install->dir, system);
  }
  const std::optional<NcclFound>& checked = torch ? torch : system;
  if (!checked) {
    if (expected.empty()) {
      return {skipped(id, title, "", "no NCCL found and the lock expects none")};
    }
    return {failed(id, title, expected, "", "no NCCL found (libnccl.so.2)")};
  }
  if (!checked->error.empty()) {
    CheckResult check = failed(id, title, expected, "", checked->error);
    check.details["path"] = checked->path;
    return {check};
  }
  CheckResult check = (expected.empty() || expected == checked->version)
                          ? passed(id, title, expected, checked->version)
                          : failed(id, title, expected, checked->version,
                                   "NCCL " + checked->version + " (from " + checked->path +
                                       ") differs from the lock's " + expected);
  check.details["checked"] = torch ? "torch" : "system";
  check.details["path"] = checked->path;
  if (torch) {
    check.details["torch"] = to_json(*torch);
  }
  if (system) {
    check.details["system"] = to_json(*system);
  }
  return {check};
}

} // namespace envlock::verify
