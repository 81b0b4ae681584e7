// The GPU-free parts of the all-reduce check: sweep sizes, their labels, the busbw judgement.
#include "verify/gpu/sweep.hpp"

#include <array>
#include <cstdio>

namespace envlock::verify {

std::string size_label(std::uint64_t bytes) {
  constexpr std::uint64_t k_kib = 1024;
  if (bytes >= k_kib * k_kib * k_kib && bytes % (k_kib * k_kib * k_kib) == 0) {
    return std::to_string(bytes / (k_kib * k_kib * k_kib)) + "GiB";
  }
  if (bytes >= k_kib * k_kib && bytes % (k_kib * k_kib) == 0) {
    return std::to_string(bytes / (k_kib * k_kib)) + "MiB";
  }
  if (bytes >= k_kib && bytes % k_kib == 0) {
    return std::to_string(bytes / k_kib) + "KiB";
  }
  return std::to_string(bytes) + "B";
}

std::vector<std::uint64_t> sweep_sizes(std::uint64_t min, std::uint64_t max) {
  std::vector<std::uint64_t> sizes;
  if (min == 0 || max < min) {
    return sizes;
  }
  for (std::uint64_t size = min; size < max; size *= 4) {
    sizes.push_back(size);
  }
  sizes.push_back(max);
  return sizes;
}

namespace {

std::string gbps_text(double value) {
  std::array<char, 32> text{};
  if (std::snprintf(text.data(), text.size(), "%.1f GB/s", value) < 0) {
    return "? GB/s";
  }
  return text.data();
}

} // namespace

void judge_busbw(const lock::Expect& expect, const std::string& model, int ranks,
                 std::uint64_t bytes, double busbw, CheckResult& check) {
  const auto threshold = expect.nccl_busbw_gbps.find(model);
  if (threshold != expect.nccl_busbw_gbps.end()) {
    check.expected = ">= " + gbps_text(threshold->second) + " at " + size_label(bytes);
  }
  if (ranks <= 1) {
    check.outcome = Outcome::skip;
    check.reason = "one GPU: no communication";
    return;
  }
  check.found = gbps_text(busbw) + " at " + size_label(bytes);
  if (threshold != expect.nccl_busbw_gbps.end() && busbw < threshold->second) {
    check.outcome = Outcome::fail;
    check.reason = "bus bandwidth " + gbps_text(busbw) + " is below the lock's minimum " +
                   gbps_text(threshold->second) + " for " + model;
    return;
  }
  check.outcome = Outcome::pass;
}

} // namespace envlock::verify
