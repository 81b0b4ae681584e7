// A node for the health tests: a scenario for the NVML stand-in (tests/standin/nvml/) and a copy of
// a host tree (/sys, /proc, /dev/kmsg), both from tests/data/node/health/NAME/, which a test
// changes before reading the facts.
#pragma once

#include "../testutil.hpp"
#include "node/facts.hpp"
#include "node/health/judge.hpp"
#include "verify/check.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::test {

class HealthNode {
public:
  explicit HealthNode(const std::string& name);

  nlohmann::json scenario;         // the NVML stand-in's answers; change before facts()
  std::filesystem::path root;      // the host tree's copy
  std::filesystem::path dmesg_log; // what the dmesg stand-in prints ("" : no dmesg in PATH)

  // Writes `text` to root/PATH.
  void write(const std::string& path, const std::string& text) const;
  // The facts, read from the stand-in and the tree (no other program is run but dmesg).
  [[nodiscard]] nlohmann::json facts() const;
  // The health checks of facts().
  [[nodiscard]] std::vector<verify::CheckResult>
  checks(const node::health::JudgeOptions& options = gpu_node()) const;

  // Options of a lock that expects GPUs and declares no health expectation.
  static node::health::JudgeOptions gpu_node();

private:
  util::TempDir m_dir;
  std::string m_name;
};

// The check `id` of `checks`; fails the test when there is none.
const verify::CheckResult& check_of(const std::vector<verify::CheckResult>& checks,
                                    const std::string& id);

// The ids of the failed checks, in order.
std::vector<std::string> failed_ids(const std::vector<verify::CheckResult>& checks);

} // namespace envlock::test
