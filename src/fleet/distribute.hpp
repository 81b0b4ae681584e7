// Distributing an image: one Slurm job copies the .sqsh to every node's local storage (sbcast)
// and has every node hash its copy; envlock compares each hash with the sha256 recorded in
// squashfs-result.json and writes distribute-report.json ("envlock.distribute-report/v1").
#pragma once

#include "fleet/batch_script.hpp"
#include "fleet/drain.hpp"
#include "fleet/job_wait.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::fleet {

inline constexpr const char* k_distribute_report = "distribute-report.json";
inline constexpr const char* k_distribute_schema = "envlock.distribute-report/v1";

struct NodeCopy {
  std::string node;
  std::string outcome; // "pass", "fail" or "missing"
  std::string sha256;  // what the node computed; empty when it could not
  std::string reason;  // why it failed or is missing
};

struct DistributeReport {
  std::string file;     // the .sqsh's file name
  std::string dest;     // the path on every node
  std::string expected; // sha256 recorded in squashfs-result.json
  std::vector<NodeCopy> nodes;
  [[nodiscard]] bool passed() const;
};

// What one node left: its sha256sum output (nullopt: nothing) and error text.
struct NodeHash {
  std::optional<std::string> sha256sum_output;
  std::string error;
};

// Compares each node's hash with `expected`. Pure; nodes in natural order.
DistributeReport check_copies(const std::map<std::string, NodeHash>& hashes,
                              const std::string& expected);

// The sqsh sha256 recorded in a squashfs-result.json; an input error naming the file when it is
// not an envlock.squashfs-result/v1 or lacks sqsh.sha256.
Result<std::string> recorded_sqsh_sha256(const std::filesystem::path& result_json);

struct DistributeRun {
  DistributeScript script;
  std::string expected;
  int poll_milliseconds = 300;
  Progress on_progress;
  std::function<void(const std::string& job_id)> on_submitted;
};

// Writes the script, runs the job, reads the nodes' hashes and writes distribute-report.json.
// Environment error when Slurm refuses the job or a file cannot be written.
Result<DistributeReport> run_distribute(const DistributeRun& run);

nlohmann::json distribute_report_to_json(const DistributeReport& report);

// One line per node ("PASS  node1  sha256") and a summary.
std::string distribute_report_to_table(const DistributeReport& report);

// The drain verdicts of a distribute-report.json; an input error naming `origin` when malformed.
Result<std::vector<NodeVerdict>> verdicts_from_distribute(const nlohmann::json& value,
                                                          const std::filesystem::path& origin);

} // namespace envlock::fleet
