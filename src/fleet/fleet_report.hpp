// The fleet report: every node's verification report folded into one pass/fail matrix by node
// and check, the failures with their values, the figures that lag the reference node or the
// lock's thresholds, and the nodes that never reported. The record and its JSON are
// formats/fleet_report.hpp; here, how it is folded and printed.
#pragma once

#include "formats/fleet_report.hpp"
#include "formats/node_facts.hpp"
#include "formats/report.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace envlock::fleet {

using formats::Failure;
using formats::FleetReport;
using formats::Missing;
using formats::NodeOutcome;
using formats::NotVerified;
using formats::Outlier;
using formats::to_string;

// What one node left in the results folder (node_results.hpp reads it).
struct NodeInput {
  std::string node;
  bool reported = false;        // a readable envlock.report/v1 was found
  bool answered = false;        // the node left anything at all (report, exit status, host facts)
  std::optional<int> exit_code; // the verifier's exit status, when it was recorded
  formats::Report report;       // the verifier's report (when reported)
  // `envlock node --check --format json` output (NODE.host.json), when there is one.
  std::optional<formats::NodeFacts> host;
  std::string problem; // why there is no usable report (set by the reader or from Slurm)
  // Set when the node was not verified at all: Slurm's state and reason, or the pending job's
  // words ("job 12 pending for more than 600 s (Resources); cancelled").
  std::optional<std::string> not_verified;
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

// The report as Markdown: summary, matrix, failures, outliers, missing nodes.
std::string fleet_report_to_markdown(const FleetReport& report);

// The terminal table: one row per node with its outcome and failed checks, then a summary line.
std::string fleet_report_to_table(const FleetReport& report);

} // namespace envlock::fleet
