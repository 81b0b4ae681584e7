// What one verification run was asked to do: the parsed command line of `envlock-verify` and
// `envlock verify`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace envlock::verify {

inline constexpr const char* k_default_lock = "/etc/envlock/lock.json";

// The check groups --check accepts, in report order.
inline const std::vector<std::string>& check_groups() {
  static const std::vector<std::string> groups = {"gpu",      "cuda",     "nccl",  "torch",
                                                  "packages", "megatron", "image", "smoke",
                                                  "gemm",     "allreduce"};
  return groups;
}

struct VerifyOptions {
  std::filesystem::path lock_path;  // empty: k_default_lock (under --root when given)
  std::filesystem::path root;       // empty: check this running system; else offline mode
  std::filesystem::path json_path;  // --json FILE
  std::filesystem::path junit_path; // --junit FILE
  std::filesystem::path host_facts; // --host-facts FILE (from `envlock node`)
  std::vector<std::filesystem::path> site_packages; // overrides the search when not empty
  std::vector<std::string> checks;                  // groups to run; empty: all
  std::string devices;                              // "0,1"; empty: all visible GPUs
  bool no_gpu = false;                              // skip the GPU checks, with that reason
  bool deep = false;                                // also hash every file named in RECORD
  bool quick = false;                               // smaller GPU sweeps
};

} // namespace envlock::verify
