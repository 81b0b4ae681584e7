#include "util/dl.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "verify/probes/probes.hpp"
#include "verify/probes/python_env.hpp"
#include "verify/probes/torch_install.hpp"
#include "verify/probes/versions.hpp"

#include <algorithm>
#include <system_error>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

struct CudnnFound {
  std::string version;
  std::string source;
};

// cuDNN's folders besides the linker's: a pip install beside torch (nvidia/cudnn/lib).
std::vector<fs::path> cudnn_dirs(const RunContext& context,
                                 const std::optional<TorchInstall>& torch) {
  std::vector<fs::path> dirs;
  if (torch) {
    dirs.push_back(torch->dir.parent_path() / "nvidia" / "cudnn" / "lib");
  }
  dirs.insert(dirs.end(), context.library_dirs().begin(), context.library_dirs().end());
  return dirs;
}

std::optional<CudnnFound> cudnn_by_dlopen(const std::optional<TorchInstall>& torch) {
  std::vector<std::string> names;
  for (const char* soname : {"libcudnn.so.9", "libcudnn.so.8"}) {
    if (torch) {
      names.emplace_back((torch->dir.parent_path() / "nvidia" / "cudnn" / "lib" / soname).string());
    }
  }
  names.emplace_back("libcudnn.so.9");
  names.emplace_back("libcudnn.so.8");
  auto lib = util::dl_open(names);
  if (!lib) {
    return std::nullopt;
  }
  auto get_version = util::dl_sym<std::size_t (*)()>(*lib, "cudnnGetVersion");
  if (!get_version) {
    return std::nullopt;
  }
  const auto code = static_cast<long>((*get_version)());
  return CudnnFound{cudnn_version_text(code), "cudnnGetVersion (" + util::dl_path(*lib) + ")"};
}

std::optional<CudnnFound> cudnn_by_file_name(const RunContext& context,
                                             const std::vector<fs::path>& dirs) {
  for (const auto& dir : dirs) {
    for (const char* soname : {"libcudnn.so.9", "libcudnn.so.8", "libcudnn.so"}) {
      const fs::path real = context.resolve(dir / soname);
      const auto version = version_from_file_name(real.filename().string(), "libcudnn.so.");
      if (version && std::count(version->begin(), version->end(), '.') >= 2) {
        return CudnnFound{*version, "file name " + context.shown(real)};
      }
    }
  }
  return std::nullopt;
}

std::optional<CudnnFound> cudnn_by_header(const RunContext& context,
                                          const std::optional<TorchInstall>& torch) {
  std::vector<fs::path> headers;
  if (torch) {
    headers.push_back(torch->dir.parent_path() / "nvidia/cudnn/include/cudnn_version.h");
  }
  for (const char* path :
       {"/usr/include/cudnn_version.h", "/usr/include/x86_64-linux-gnu/cudnn_version_v9.h",
        "/usr/include/aarch64-linux-gnu/cudnn_version_v9.h",
        "/usr/include/x86_64-linux-gnu/cudnn_version_v8.h",
        "/usr/local/cuda/include/cudnn_version.h"}) {
    headers.push_back(context.at(path));
  }
  for (const auto& header : headers) {
    auto text = context.read(header, 1 << 20);
    if (!text) {
      continue;
    }
    std::map<std::string, std::string> defines;
    for (const auto& line : util::split(*text, '\n')) {
      const auto words = util::split(std::string(util::trim(line)), ' ');
      if (words.size() >= 3 && words[0] == "#define") {
        defines[words[1]] = words.back();
      }
    }
    if (defines.count("CUDNN_MAJOR") != 0 && defines.count("CUDNN_MINOR") != 0 &&
        defines.count("CUDNN_PATCHLEVEL") != 0) {
      return CudnnFound{defines["CUDNN_MAJOR"] + "." + defines["CUDNN_MINOR"] + "." +
                            defines["CUDNN_PATCHLEVEL"],
                        "header " + context.shown(header)};
    }
  }
  return std::nullopt;
}

CheckResult cudnn_check(const RunContext& context, const std::optional<TorchInstall>& torch) {
  const auto dirs = cudnn_dirs(context, torch);
  std::optional<CudnnFound> found;
  if (context.mode() == Mode::live) {
    found = cudnn_by_dlopen(torch);
  }
  if (!found) {
    found = cudnn_by_file_name(context, dirs);
  }
  if (!found) {
    found = cudnn_by_header(context, torch);
  }
  if (!found) {
    return skipped("torch.cudnn", "cuDNN", "", "cuDNN not found (libcudnn.so.*, cudnn_version.h)");
  }
  CheckResult check = passed("torch.cudnn", "cuDNN", "", found->version);
  check.details["source"] = found->source;
  return check;
}

} // namespace

std::vector<CheckResult> probe_torch(const RunContext& context) {
  const auto torch = find_torch(context, context.python());
  const std::string& expected = context.lock().expect.pytorch;
  std::vector<CheckResult> out;
  if (!torch) {
    const std::string reason = "PyTorch not found (no torch/version.py in the site-packages)";
    out.push_back(expected.empty() ? skipped("torch.version", "PyTorch", "", reason)
                                   : failed("torch.version", "PyTorch", expected, "", reason));
    out.push_back(
        skipped("torch.cuda", "PyTorch's CUDA", context.lock().expect.cuda, "PyTorch not found"));
  } else if (!torch->problem.empty()) {
    out.push_back(failed("torch.version", "PyTorch", expected, "", torch->problem));
    out.push_back(skipped("torch.cuda", "PyTorch's CUDA", context.lock().expect.cuda,
                          "PyTorch's version.py cannot be read"));
  } else {
    CheckResult version =
        (expected.empty() || expected == torch->version)
            ? passed("torch.version", "PyTorch", expected, torch->version)
            : failed("torch.version", "PyTorch", expected, torch->version,
                     "PyTorch " + torch->version + " differs from the lock's " + expected);
    version.details = {{"path", context.shown(torch->dir / "version.py")},
                       {"cuda", torch->cuda},
                       {"git_version", torch->git_version}};
    out.push_back(std::move(version));

    const std::string expected_cuda =
        major_minor(context.lock().expect.cuda).value_or(context.lock().expect.cuda);
    const std::string found_cuda = major_minor(torch->cuda).value_or(torch->cuda);
    if (torch->cuda.empty()) {
      out.push_back(failed("torch.cuda", "PyTorch's CUDA", context.lock().expect.cuda, "",
                           "PyTorch was built without CUDA"));
    } else if (expected_cuda.empty() || expected_cuda == found_cuda) {
      out.push_back(
          passed("torch.cuda", "PyTorch's CUDA", context.lock().expect.cuda, torch->cuda));
    } else {
      out.push_back(failed("torch.cuda", "PyTorch's CUDA", context.lock().expect.cuda, torch->cuda,
                           "PyTorch was built for CUDA " + found_cuda + ", the lock expects " +
                               expected_cuda));
    }
  }
  out.push_back(cudnn_check(context, torch));
  return out;
}

} // namespace envlock::verify
