// The fleet report (envlock.fleet-report/v1, docs/formats/fleet-report.md): every node's
// verification report folded into one pass/fail matrix by node and check, the failures with
// their values, the figures that lag the reference node or the lock's thresholds, and the nodes
// that never reported or were not verified. `envlock fleet verify` writes RESULTS/
// fleet-report.json; `envlock fleet drain-list` and `envlock fleet rollout` read it.
#pragma once

#include "formats/record.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::formats {

inline constexpr const char* k_fleet_report_schema = "envlock.fleet-report/v1";
inline constexpr const char* k_fleet_report_file = "fleet-report.json";

struct Failure {
  std::string node;
  std::string check;
  std::string expected;
  std::string found;
  std::string reason;
  // A health check's drain line ("health.gpu.row_remap_pending GPU 3: drain, reset the GPU",
  // docs/manual/health.md); "" for other checks.
  std::string drain;
  bool operator==(const Failure&) const = default;
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
  bool operator==(const Outlier&) const = default;
};

struct Missing {
  std::string node;
  std::string reason;
  bool operator==(const Missing&) const = default;
};

// A node no job ran on: drained, down, not responding, reserved, or the job pended too long.
struct NotVerified {
  std::string node;
  std::string reason; // "drained (bad fan)", "job 12 pending for more than 600 s (Resources)..."
  bool operator==(const NotVerified&) const = default;
};

// The fleet's SDC comparison (docs/formats/fleet-report.md, "sdc"): the GPUs' chain digests
// (formats/sdc.hpp) compared within each group of one chain, model, driver, CUDA and cuBLASLt.
struct SdcGroup {
  std::string group;          // formats::sdc_group_key
  std::size_t gpus = 0;       // GPUs compared (those whose chain repeated)
  std::size_t nodes = 0;      // nodes they are on
  std::string verdict;        // "agree", "minority", "tie" or "too_small"
  std::uint64_t tie_step = 0; // a tie: the step
  std::vector<std::pair<std::string, std::size_t>> tie_sides; // a tie: digest, GPUs
  std::vector<std::string> left_out; // "node7 GPU 3: its chain did not repeat on itself"
  bool operator==(const SdcGroup&) const = default;
};

// A GPU whose digests left its group's majority (sdc.gpu.minority).
struct SdcMinority {
  std::string node;
  std::int64_t gpu = 0;
  std::string uuid;
  std::string serial;
  std::string group;
  std::uint64_t step = 0; // the first digested step at which it differs
  std::string found;
  std::string majority;
  std::size_t majority_gpus = 0;
  std::size_t compared_gpus = 0;
  bool operator==(const SdcMinority&) const = default;
};

struct FleetSdc {
  std::vector<SdcGroup> groups;      // by group key
  std::vector<SdcMinority> minority; // by group, then step, then node
  bool operator==(const FleetSdc&) const = default;
};

enum class NodeOutcome { pass, fail, missing, not_verified };

// "pass" / "fail" / "missing" / "not_verified"
const char* to_string(NodeOutcome outcome);

// The volatile part: the Slurm job (empty for --report-only) and the results folder.
struct FleetRun {
  std::string job_id;
  std::string results;
  bool operator==(const FleetRun&) const = default;
};

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
  FleetSdc sdc; // empty when no node ran the SDC check ("sdc" not written)
  FleetRun run;

  // Every node verified and passing.
  [[nodiscard]] bool passed() const {
    return failures.empty() && outliers.empty() && missing.empty() && not_verified.empty();
  }
  [[nodiscard]] std::vector<std::string> nodes_with(NodeOutcome outcome) const;
  bool operator==(const FleetReport&) const = default;
};

nlohmann::json to_json(const FleetReport& report);

// Reads a fleet report; `outcome` and `summary` must agree with the nodes. `not_verified` may be
// absent (reports of envlock versions before it). An input error names `origin` and the field.
template <>
Result<FleetReport> from_json<FleetReport>(const nlohmann::json& value, const std::string& origin);

Result<FleetReport> read_fleet_report(const std::filesystem::path& path);
Status write_fleet_report(const std::filesystem::path& path, const FleetReport& report);

} // namespace envlock::formats
