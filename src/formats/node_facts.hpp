// Host facts (envlock.node-facts/v1, docs/formats/node-facts.md): what a node is made of
// (hardware, firmware, OS, kernel, NVIDIA driver, GPUs, fabric and container tools, Slurm), as
// `envlock node --format json` writes them, with --check the expect.host checks too.
// `envlock handover --node`, envlock-verify --host-facts and `envlock fleet` (NODE.host.json)
// read them. node/facts.hpp gathers them.
#pragma once

#include "formats/record.hpp"
#include "formats/report.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::formats {

inline constexpr const char* k_node_facts_schema = "envlock.node-facts/v1";
inline constexpr const char* k_node_facts_file = "node.json";

// One fact: its value and where it came from, or (value null) why it could not be read.
struct Fact {
  std::optional<std::string> value;
  std::string source;  // a path on the host, a command line, or "nvml (LIBRARY)"
  std::string missing; // why there is no value; written only then
  bool operator==(const Fact&) const = default;
};

// One GPU as NVML or nvidia-smi reports it.
struct NodeGpu {
  std::int64_t index = 0;
  // false when the device could not be opened: then name, uuid and vbios are not written.
  bool opened = true;
  std::optional<std::string> name; // null when NVML did not answer
  std::optional<std::string> uuid;
  std::optional<std::string> vbios;
  std::string health; // "ok", or the NVML errors
  bool operator==(const NodeGpu&) const = default;
};

struct NodeFacts {
  std::map<std::string, Fact> facts; // by key (docs/manual/node.md)
  std::vector<NodeGpu> gpus;         // in index order; empty when no list could be read
  // The health facts (docs/manual/health.md): `nvml`, per GPU `gpus` and `host`, each value a
  // fact of its own ({value, source} or {value: null, source, missing}) read by node/health's
  // rules. Kept as written: its readers are the rules, which judge a value they cannot read as
  // missing, never as passing. Absent when the health facts were not read.
  std::optional<nlohmann::json> health;
  // With --check: the expect.host checks (written with `outcome` and `summary`).
  std::optional<std::vector<CheckResult>> checks;
  bool operator==(const NodeFacts&) const = default;
};

nlohmann::json to_json(const NodeFacts& facts);

// Reads host facts; with `checks`, `outcome` and `summary` must agree with them. An input error
// names `origin` and the field ("node.json: facts.kernel.value: must be a string or null").
template <>
Result<NodeFacts> from_json<NodeFacts>(const nlohmann::json& value, const std::string& origin);

Result<NodeFacts> read_node_facts(const std::filesystem::path& path);
Status write_node_facts(const std::filesystem::path& path, const NodeFacts& facts);

} // namespace envlock::formats
