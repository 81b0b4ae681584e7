#include "sbom/gpu_libraries.hpp"

#include "verify/probes/cublas.hpp"
#include "verify/probes/probes.hpp"

#include <algorithm>

namespace envlock::sbom {

namespace {

const verify::CheckResult* check_with_id(const std::vector<verify::CheckResult>& checks,
                                         const std::string& id) {
  const auto it = std::find_if(checks.begin(), checks.end(),
                               [&](const verify::CheckResult& check) { return check.id == id; });
  return it == checks.end() ? nullptr : &*it;
}

std::string detail_text(const nlohmann::json& details, const char* key) {
  const auto it = details.find(key);
  return it != details.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Where the probe read the version: details.source, else details.path.
std::string probe_source(const verify::CheckResult& check) {
  std::string source = detail_text(check.details, "source");
  if (source.empty()) {
    source = detail_text(check.details, "path");
  }
  return source;
}

void add_library(GpuPart& out, const std::string& name, const std::string& description,
                 const verify::CheckResult* check) {
  if (check == nullptr || check->found.empty() || probe_source(*check).empty()) {
    const std::string why = check == nullptr ? "not probed" : check->reason;
    out.properties.push_back({"envlock:gpu:" + name, "not found: " + why});
    return;
  }
  Component component;
  component.type = "library";
  component.name = name;
  component.version = check->found;
  component.bom_ref = "gpu:" + name;
  component.description = description;
  component.properties.push_back({"envlock:found-in", probe_source(*check)});
  if (check->outcome == verify::Outcome::fail) {
    component.properties.push_back({"envlock:lock", check->reason});
  }
  out.components.push_back(std::move(component));
}

} // namespace

GpuPart gpu_libraries(const verify::RunContext& context) {
  GpuPart out;
  const auto cuda = verify::probe_cuda(context);
  add_library(out, "cuda-runtime", "NVIDIA CUDA runtime", check_with_id(cuda, "cuda.runtime"));
  const auto nccl = verify::probe_nccl(context);
  add_library(out, "nccl", "NVIDIA NCCL (the one PyTorch loads, else the system's)",
              check_with_id(nccl, "nccl.version"));
  const auto torch = verify::probe_torch(context);
  add_library(out, "cudnn", "NVIDIA cuDNN", check_with_id(torch, "torch.cudnn"));
  if (const auto cublas = verify::find_cublas(context)) {
    Component component;
    component.type = "library";
    component.name = "cublas";
    component.version = cublas->version;
    component.bom_ref = "gpu:cublas";
    component.description = "NVIDIA cuBLAS";
    component.properties.push_back({"envlock:found-in", cublas->source});
    out.components.push_back(std::move(component));
  } else {
    out.properties.push_back(
        {"envlock:gpu:cublas",
         "not found: no libcublas in /usr/local/cuda/version.json, the library folders or "
         "nvidia/cublas/lib beside PyTorch"});
  }
  return out;
}

} // namespace envlock::sbom
