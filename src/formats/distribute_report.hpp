// distribute-report.json (envlock.distribute-report/v1, docs/formats/distribute-report.md): which
// nodes hold a good copy of the .sqsh `envlock fleet distribute` copied to them, by the sha256
// each node computed against the one its squashfs result records. `envlock fleet drain-list`
// reads it.
#pragma once

#include "formats/record.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::formats {

inline constexpr const char* k_distribute_report_schema = "envlock.distribute-report/v1";
inline constexpr const char* k_distribute_report_file = "distribute-report.json";

struct NodeCopy {
  std::string node;
  // "pass", "fail", "not_verified" (out of service, or it left no result: never drained for it)
  // or "missing" (what earlier versions wrote for a node without a result)
  std::string outcome;
  std::string sha256; // what the node computed; empty when it could not
  std::string reason; // why it failed or is missing
  bool operator==(const NodeCopy&) const = default;
};

struct DistributeReport {
  std::string file;     // the .sqsh's file name
  std::string dest;     // the path on every node
  std::string expected; // sha256 recorded in the squashfs result
  std::vector<NodeCopy> nodes;
  std::string job_id;  // volatile (`run`): the Slurm job
  std::string results; // volatile (`run`): the results folder
  // Every node holds a good copy.
  [[nodiscard]] bool passed() const;
  bool operator==(const DistributeReport&) const = default;
};

nlohmann::json to_json(const DistributeReport& report);

// Reads a distribute report; `outcome` must agree with the nodes. An input error names `origin`
// and the field.
template <>
Result<DistributeReport> from_json<DistributeReport>(const nlohmann::json& value,
                                                     const std::string& origin);

Result<DistributeReport> read_distribute_report(const std::filesystem::path& path);
Status write_distribute_report(const std::filesystem::path& path, const DistributeReport& report);

} // namespace envlock::formats
