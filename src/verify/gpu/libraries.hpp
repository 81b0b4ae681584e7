// Where the GPU checks look for NCCL and cuBLASLt: first the copies PyTorch's pip wheels bring
// (site-packages/nvidia/*/lib, torch/lib: not on the dynamic linker's path, yet the ones PyTorch
// loads through its RPATH), then the dynamic linker's own search by soname.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace envlock::verify {

// The library folders of Python environments, in order: for each site-packages folder in
// `site_packages` (or, when empty, those of VIRTUAL_ENV, UV_PROJECT_ENVIRONMENT, /opt/venv and
// the environment of the python3 on PATH), its nvidia/*/lib folders, sorted, then torch/lib.
// Only existing folders are returned.
std::vector<std::filesystem::path>
python_library_dirs(const std::vector<std::filesystem::path>& site_packages);

// `dir/soname` for every folder and soname that exists, folders first, then the bare sonames for
// the dynamic linker: what dl_open should try, in order.
std::vector<std::string> library_candidates(const std::vector<std::filesystem::path>& dirs,
                                            const std::vector<std::string>& sonames);

} // namespace envlock::verify
