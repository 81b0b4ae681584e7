// CUDA's runtime, NCCL, cuDNN and cuBLAS as the verifier's probes find them in the image (offline:
// from files only), each a component with its version and the file it was read from. One that is
// not found is a document property with the probe's reason.
#pragma once

#include "sbom/bom.hpp"
#include "verify/run_context.hpp"

#include <vector>

namespace envlock::sbom {

struct GpuPart {
  std::vector<Component> components;
  std::vector<Property> properties;
};

GpuPart gpu_libraries(const verify::RunContext& context);

} // namespace envlock::sbom
