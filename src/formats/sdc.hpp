// The SDC check's per-GPU record (docs/formats/report.md, "SDC digests"): the details of a report's
// "gpu.N.sdc" check, written by envlock-verify and read by its own node comparison and by the
// fleet's (`envlock fleet verify`, the handover). Digests compare only among GPUs of one group:
// the same chain, model, driver, CUDA driver API and cuBLASLt versions (sdc_group_key).
#pragma once

#include "formats/report.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace envlock::formats {

struct SdcAlgo {
  std::int64_t id = 0;
  std::uint64_t tile = 0;
  std::int64_t splitk = 0;
  std::uint64_t reduction_scheme = 0;
  std::uint64_t swizzle = 0;
  std::uint64_t custom = 0;
  std::uint64_t stages = 0;
  bool operator==(const SdcAlgo&) const = default;
};

struct SdcDigests {
  std::string chain; // "bf16-16384x16384x4096-fold/v1"
  std::string uuid;
  std::string name;
  std::string serial;         // "" when not read
  std::string driver_version; // "" when not read (no NVML)
  std::string cuda_driver_api;
  std::string cublaslt_version;
  SdcAlgo algo;
  std::uint64_t steps = 0;
  std::uint64_t every = 0;
  std::vector<std::pair<std::uint64_t, std::string>> digests; // step -> sha256, steps ascending
  bool repeated = false;
  std::string repeat_sha256;
  std::optional<std::uint64_t> injected_bitflip_step; // test runs only
  bool operator==(const SdcDigests&) const = default;
};

// The record as the check's details (every key above, "digests" as [{step, sha256}], "last").
nlohmann::json to_json(const SdcDigests& digests);

// The record of a "gpu.N.sdc" check that ran (outcome pass); nothing for any other check or one
// that did not run; an input error names `origin`, the check and the field.
Result<std::optional<SdcDigests>> read_sdc_digests(const CheckResult& check,
                                                   const std::string& origin);

// The comparison group: chain, model, driver, CUDA driver API and cuBLASLt versions, joined.
std::string sdc_group_key(const SdcDigests& digests);

// The GPU index N of a check id "gpu.N.sdc"; -1 for another id.
int sdc_gpu_index(const std::string& check_id);

} // namespace envlock::formats
