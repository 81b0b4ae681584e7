// The fleet report: every node's verification report folded into one pass/fail matrix by node
// and check, the failures with their values, the figures that lag the reference node or the
// lock's thresholds, and the nodes that never reported. docs/formats/fleet-report.md describes
// its JSON form ("envlock.fleet-report/v1").
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::fleet {

inline constexpr const char* k_fleet_report_schema = "envlock.fleet-report/v1";

// What one node left in the results folder (node_results.hpp reads it).
struct NodeInput {
  std::string node;
  bool reported = false;        // a readable envlock.report/v1 was found
  std::optional<int> exit_code; // the verifier's exit status, when it was recorded
  nlohmann::json report;        // the verifier's report (when reported)
  nlohmann::json host;          // `envlock node --check --json` output, or null
  std::string problem;          // why there is no usable report (set by the reader or from Slurm)
  // Set when the node was not verified at all: Slurm's state and reason, or the pending job's
  // words ("job 12 pending for more than 600 s (Resources); cancelled").
  std::optional<std::string> not_verified;
};

struct Failure {
  std::string node;
  std::string check;
  std::string expected;
  std::string found;
  std::string reason;
  // A health check's drain line ("health.gpu.row_remap_pending GPU 3: drain, reset the GPU",
  // docs/manual/health.md); "" for other checks.
  std::string drain;
};

// A figure below what it is compared with.
struct Outlier {
  std::string node;
  std::string check;
  std::string figure;
  std::string unit;
  double value = 0;
  double against = 0; // the reference node's value, or the threshold
  std::string source; // "reference node1" or "threshold expect.nccl_busbw_gbps[MODEL]"
};

struct Missing {
  std::string node;
  std::string reason;
};

// A node no job ran on: drained, down, not responding, reserved, or the job pended too long.
struct NotVerified {
  std::string node;
  std::string reason; // "drained (bad fan)", "job 12 pending for more than 600 s (Resources)..."
};

enum class NodeOutcome { pass, fail, missing, not_verified };

// "pass" / "fail" / "missing" / "not_verified"
const char* to_string(NodeOutcome outcome);

struct FleetReport {
  std::string image;        // as given
  std::string image_digest; // sha256:… of the .sqsh, or the reference's digest
  std::string lock_sha256;
  std::string reference_node;
  std::vector<std::string> nodes;  // natural order
  std::vector<std::string> checks; // in first-seen order over the sorted nodes
  std::map<std::string, NodeOutcome> node_outcomes;
  // node -> check -> "pass" / "fail" / "skip" (absent: the node did not run that check)
  std::map<std::string, std::map<std::string, std::string>> matrix;
  // node -> "pass" / "fail" / "skip": the lock and image the node's report names against the
  // fleet's lock_sha256 and image_digest (skip: the report names neither). Reported nodes only.
  std::map<std::string, std::string> chain;
  // node -> "pass" / "warn" / "fail" / "skip": the node's health checks (`envlock node --check`,
  // ids "health.*") folded: any failure fails, a warning warns. Nodes without them are absent.
  std::map<std::string, std::string> health;
  std::vector<Failure> failures; // by node, then check order
  std::vector<Outlier> outliers;
  std::vector<Missing> missing;
  std::vector<NotVerified> not_verified;

  // Every node verified and passing.
  [[nodiscard]] bool passed() const {
    return failures.empty() && outliers.empty() && missing.empty() && not_verified.empty();
  }
  [[nodiscard]] std::vector<std::string> nodes_with(NodeOutcome outcome) const;
};

struct AggregateOptions {
  std::string image;
  std::string image_digest;
  std::string lock_sha256;
  std::string reference;   // empty: the first node
  double tolerance = 0.10; // a figure more than this fraction below the reference is an outlier
  // Minimum busbw (GB/s) by GPU model, from the lock's expect.nccl_busbw_gbps.
  std::map<std::string, double> busbw_thresholds;
};

// Folds the nodes' reports into the fleet report. Pure: the same inputs give the same report.
FleetReport aggregate(std::vector<NodeInput> nodes, const AggregateOptions& options);

// The report as JSON (docs/formats/fleet-report.md).
nlohmann::json fleet_report_to_json(const FleetReport& report);

// Reads a fleet report's JSON back (for drain-list and rollout); nullopt when it is not one.
std::optional<FleetReport> fleet_report_from_json(const nlohmann::json& value);

// The report as Markdown: summary, matrix, failures, outliers, missing nodes.
std::string fleet_report_to_markdown(const FleetReport& report);

// The terminal table: one row per node with its outcome and failed checks, then a summary line.
std::string fleet_report_to_table(const FleetReport& report);

} // namespace envlock::fleet
