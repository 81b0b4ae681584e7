#include "util/dl.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"
#include "verify/probes/probes.hpp"
#include "verify/probes/versions.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <system_error>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t k_version_json_limit = 1 << 20;

struct DriverInfo {
  std::optional<int> code; // cuDriverGetVersion
  std::string kernel_module;
  std::string error; // why there is no code
  std::string path;
};

struct RuntimeInfo {
  std::optional<int> code; // 1000*major + 10*minor
  std::string version;     // as found ("13.0", "13.0.96")
  std::string source;      // where it came from
};

// The version in /proc/driver/nvidia/version: the first token starting with a digit after
// "Kernel Module".
std::string kernel_module_version(const RunContext& context) {
  auto text = context.read(context.at("/proc/driver/nvidia/version"), 1 << 16);
  if (!text) {
    return {};
  }
  const auto at = text->find("Kernel Module");
  if (at == std::string::npos) {
    return {};
  }
  for (const auto& word : util::split(text->substr(at, text->find('\n', at) - at), ' ')) {
    if (!word.empty() && std::isdigit(static_cast<unsigned char>(word.front())) != 0) {
      return word;
    }
  }
  return {};
}

DriverInfo probe_driver(const RunContext& context) {
  DriverInfo info;
  auto lib = util::dl_open({"libcuda.so.1"});
  if (!lib) {
    info.error = "no NVIDIA driver: " + lib.error().message;
    return info;
  }
  info.path = util::dl_path(*lib);
  info.kernel_module = kernel_module_version(context);
  auto get_version = util::dl_sym<int (*)(int*)>(*lib, "cuDriverGetVersion");
  if (!get_version) {
    info.error = get_version.error().message;
    return info;
  }
  int code = 0;
  const int status = (*get_version)(&code);
  if (status != 0) {
    info.error = "cuDriverGetVersion failed with CUresult " + std::to_string(status);
    return info;
  }
  info.code = code;
  return info;
}

bool all_digits(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

// 1000*major + 10*minor of "MAJOR.MINOR[...]".
std::optional<int> code_of(const std::string& version) {
  const auto parts = util::split(version, '.');
  if (parts.size() < 2 || !all_digits(parts[0]) || !all_digits(parts[1])) {
    return std::nullopt;
  }
  return std::stoi(parts[0]) * 1000 + std::stoi(parts[1]) * 10;
}

std::optional<RuntimeInfo> runtime_by_dlopen(const RunContext& context) {
  std::vector<std::string> names = {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0",
                                    "libcudart.so"};
  for (const char* dir :
       {"/usr/local/cuda/lib64", "/usr/local/cuda/lib", "/usr/local/cuda/targets/x86_64-linux/lib",
        "/usr/local/cuda/targets/sbsa-linux/lib"}) {
    for (const char* soname : {"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"}) {
      names.push_back((context.at(dir) / soname).string());
    }
  }
  auto lib = util::dl_open(names);
  if (!lib) {
    return std::nullopt;
  }
  auto get_version = util::dl_sym<int (*)(int*)>(*lib, "cudaRuntimeGetVersion");
  int code = 0;
  if (!get_version || (*get_version)(&code) != 0) {
    return std::nullopt;
  }
  return RuntimeInfo{code, cuda_version_text(code),
                     "cudaRuntimeGetVersion (" + util::dl_path(*lib) + ")"};
}

std::optional<RuntimeInfo> runtime_from_files(const RunContext& context) {
  const fs::path json_path = context.at("/usr/local/cuda/version.json");
  const auto text = context.read(json_path, k_version_json_limit);
  if (auto json = text ? util::parse_json(*text, context.shown(json_path))
                       : Result<nlohmann::json>(text.error())) {
    for (const char* key : {"cuda_cudart", "cuda"}) {
      const auto it = json->find(key);
      if (it != json->end() && it->is_object() && it->contains("version") &&
          (*it)["version"].is_string()) {
        const std::string version = (*it)["version"];
        const auto mm = major_minor(version);
        return RuntimeInfo{mm ? code_of(*mm) : std::nullopt, version,
                           context.shown(json_path) + " (" + key + ")"};
      }
    }
  }
  for (const auto& dir : context.library_dirs()) {
    std::vector<fs::path> found;
    for (const auto& entry : context.list(dir)) {
      const auto version = version_from_file_name(entry.name, "libcudart.so.");
      if (version && std::count(version->begin(), version->end(), '.') >= 1) {
        found.push_back(dir / entry.name);
      }
    }
    if (!found.empty()) {
      std::sort(found.begin(), found.end());
      const std::string version =
          *version_from_file_name(found.back().filename().string(), "libcudart.so.");
      const auto mm = major_minor(version);
      return RuntimeInfo{mm ? code_of(*mm) : std::nullopt, version,
                         "file name " + context.shown(found.back())};
    }
  }
  return std::nullopt;
}

// Why driver checks cannot run, when they cannot: offline mode or --no-gpu.
std::optional<std::string> driver_skip_reason(const RunContext& context) {
  if (context.mode() == Mode::offline) {
    return "offline mode (--root): the driver belongs to the node, not the image";
  }
  if (context.options().no_gpu) {
    return "GPU checks skipped (--no-gpu)";
  }
  return std::nullopt;
}

} // namespace

std::vector<CheckResult> probe_cuda(const RunContext& context) {
  std::vector<CheckResult> out;
  const std::string& expected_cuda = context.lock().expect.cuda;

  std::optional<RuntimeInfo> runtime;
  if (context.mode() == Mode::live) {
    runtime = runtime_by_dlopen(context);
  }
  if (!runtime) {
    runtime = runtime_from_files(context);
  }
  CheckResult runtime_check;
  if (!runtime) {
    runtime_check = expected_cuda.empty()
                        ? skipped("cuda.runtime", "CUDA runtime in the image", "",
                                  "no CUDA runtime found and the lock expects none")
                        : failed("cuda.runtime", "CUDA runtime in the image", expected_cuda, "",
                                 "no CUDA runtime found (libcudart.so.*, "
                                 "/usr/local/cuda/version.json)");
  } else {
    const std::string found = major_minor(runtime->version).value_or(runtime->version);
    const std::string expected = major_minor(expected_cuda).value_or(expected_cuda);
    runtime_check =
        (expected.empty() || expected == found)
            ? passed("cuda.runtime", "CUDA runtime in the image", expected_cuda, runtime->version)
            : failed("cuda.runtime", "CUDA runtime in the image", expected_cuda, runtime->version,
                     "CUDA runtime " + found + " differs from the lock's " + expected);
    runtime_check.details["source"] = runtime->source;
  }

  if (auto reason = driver_skip_reason(context)) {
    out.push_back(skipped("cuda.driver", "CUDA driver", "", *reason));
    out.push_back(std::move(runtime_check));
    out.push_back(skipped("cuda.compat", "driver supports the runtime", "", *reason));
    return out;
  }
  const DriverInfo driver = probe_driver(context);
  if (!driver.code) {
    out.push_back(failed("cuda.driver", "CUDA driver", "", "", driver.error));
  } else {
    std::string found = cuda_version_text(*driver.code);
    if (!driver.kernel_module.empty()) {
      found += " (kernel module " + driver.kernel_module + ")";
    }
    CheckResult check = passed("cuda.driver", "CUDA driver", "", found);
    check.details = {{"cuda_version_code", *driver.code},
                     {"kernel_module", driver.kernel_module},
                     {"path", driver.path}};
    out.push_back(std::move(check));
  }
  out.push_back(std::move(runtime_check));

  const std::string title = "driver supports the runtime";
  if (!driver.code) {
    out.push_back(failed("cuda.compat", title, "", "", driver.error));
  } else if (!runtime || !runtime->code) {
    out.push_back(skipped("cuda.compat", title, "", "no CUDA runtime version to compare"));
  } else {
    const std::string expected = ">= " + cuda_version_text(*runtime->code);
    const std::string found = cuda_version_text(*driver.code);
    out.push_back(*driver.code >= *runtime->code ? passed("cuda.compat", title, expected, found)
                                                 : failed("cuda.compat", title, expected, found,
                                                          "the driver supports CUDA up to " +
                                                              found + ", older than the runtime " +
                                                              cuda_version_text(*runtime->code)));
  }
  return out;
}

} // namespace envlock::verify
