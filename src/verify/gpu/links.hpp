// The link check (`--check links`): the copy bandwidth between every pair of GPUs, both ways, with
// peer access enabled for the pair while it is measured, and between page-locked host memory and
// each GPU, both ways, from a thread on the GPU's own CPUs. Copies go through the driver
// (cuMemcpyPeerAsync, cuMemcpyHtoDAsync, cuMemcpyDtoHAsync), timed with events after warm-up
// copies; each copy's data is checked at both ends. link_verdict judges the figures.
#pragma once

#include "lock/lock.hpp"
#include "verify/check.hpp"
#include "verify/gpu/cuda_driver.hpp"
#include "verify/gpu/device.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace envlock::verify {

struct LinkSizes {
  std::size_t peer_bytes = std::size_t{256} << 20; // one copy between two GPUs
  std::size_t host_bytes = std::size_t{64} << 20;  // one copy between the host and a GPU
  int warmup = 2;                                  // untimed copies
  int timed = 10;                                  // copies between the two events
};

// The PCI address as sysfs names its folder: "0000:1b:00.0" from the driver's "00000000:1B:00.0"
// or "0000:1B:00.0"; empty when `bus_id` is no PCI address.
std::string sysfs_pci_address(const std::string& bus_id);

// Measures and judges the three link checks over `devices`. The peer check is skipped with the
// reason on one GPU. Never fails as a whole: each copy that fails is named in its check.
std::vector<CheckResult> link_checks(const cuda::Api& api, const lock::Lock& lock,
                                     const std::vector<DeviceInfo>& devices,
                                     const LinkSizes& sizes);

} // namespace envlock::verify
