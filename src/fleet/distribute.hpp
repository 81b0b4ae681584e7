// Distributing an image: one Slurm job copies the .sqsh to every node's local storage (sbcast)
// and has every node hash its copy; envlock compares each hash with the sha256 recorded in the
// squashfs result and writes distribute-report.json (formats/distribute_report.hpp).
#pragma once

#include "fleet/batch_script.hpp"
#include "fleet/drain.hpp"
#include "fleet/job_wait.hpp"
#include "formats/distribute_report.hpp"
#include "util/result.hpp"

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace envlock::fleet {

using formats::DistributeReport;
using formats::NodeCopy;

// What one node left: its sha256sum output (nullopt: nothing) and error text.
struct NodeHash {
  std::optional<std::string> sha256sum_output;
  std::string error;
  bool answered = true; // the node left anything (its hash or its error file)
};

// Compares each node's hash with `expected`. Pure; nodes in natural order.
DistributeReport check_copies(const std::map<std::string, NodeHash>& hashes,
                              const std::string& expected);

// The sqsh sha256 recorded in a squashfs result; the reader's input error naming the file when it
// is not one.
Result<std::string> recorded_sqsh_sha256(const std::filesystem::path& result_json);

struct DistributeRun {
  DistributeScript script;
  std::string expected;
  WaitLimits limits{300, 5000, std::chrono::seconds(600), std::chrono::seconds(0)};
  Progress on_progress;
  std::function<void(const std::string& job_id)> on_submitted;
};

// Writes the script, runs the job, reads the nodes' hashes and writes distribute-report.json.
// Nodes Slurm will not give a job (drained, down, ...) are left out of it and reported as
// not_verified with their states, as are nodes that left no result (lost, or the job was given
// up on: pending past the limit, not over by the deadline, Slurm not answering). Environment
// error when Slurm refuses the job or a file cannot be written.
Result<DistributeReport> run_distribute(const DistributeRun& run);

// One line per node ("PASS  node1  sha256") and a summary.
std::string distribute_report_to_table(const DistributeReport& report);

// The drain verdicts of a distribute report; not_verified nodes get none.
std::vector<NodeVerdict> verdicts_from_distribute(const DistributeReport& report);

} // namespace envlock::fleet
