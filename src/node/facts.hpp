// Host facts: what a node is made of (hardware, firmware, OS, kernel, NVIDIA driver, GPUs, fabric
// and container tools, Slurm), as `envlock node` and the verifier report them
// (docs/formats/node-facts.md). Uses only the C++ standard library, files under /sys, /proc and
// /etc, dlopen (NVML) and the tools' own --version, so the node-side verifier can link it.
//
// Every fact is {"value": TEXT, "source": WHERE} or, when it cannot be read,
// {"value": null, "source": WHERE, "missing": WHY}. Nothing is ever guessed.
#pragma once

#include "formats/node_facts.hpp"
#include "node/gpus.hpp"

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::node {

inline constexpr const char* k_facts_schema = formats::k_node_facts_schema;

// Whether the facts include the health facts (node/health/health_facts.hpp), and whether those
// run DCGM's quick diagnostic where dcgmi is installed.
enum class HealthFacts { read, skip };
enum class DcgmDiag { run, skip };

// Where the facts come from; tests point `root` at a folder laid out like /.
struct HostSources {
  std::filesystem::path root = "/"; // prefix of /sys, /proc, /etc and /dev/kmsg
  std::vector<std::string> nvml = {"libnvidia-ml.so.1"}; // sonames or paths tried for NVML
  bool run_programs = true; // ask nvidia-smi, docker, enroot, slurmd, dmesg ... for their versions
  HealthFacts health = HealthFacts::read;
  DcgmDiag dcgm = DcgmDiag::run;
  // How long NVML may take (gpus.hpp): past it the unanswered call is a failed rule.
  std::chrono::milliseconds nvml_deadline = k_nvml_deadline;
};

// Every string of `value` (keys too) made valid UTF-8, invalid bytes written "\xNN": what a
// host holds (a process name, a log line, NVML's text) is never trusted to be text.
void make_valid_utf8(nlohmann::json& value);

// The sources `envlock node` reads: / and libnvidia-ml.so.1, unless ENVLOCK_NODE_ROOT names
// another root (a folder laid out like /: a node's tree seen from outside, a test's) and
// ENVLOCK_NVML another NVML library (a path).
HostSources host_sources_from_environment();

// The facts object of this host: {"schema", "facts": {KEY: fact}, "gpus": [...], "health":
// {...}} ("health" unless skipped). Never fails; what cannot be read is a fact with "missing".
nlohmann::json collect_host_facts(const HostSources& sources);

// The facts of this host, read from / with every probe.
nlohmann::json collect_host_facts();

// The fact keys collect_host_facts writes, sorted (for "did you mean" and the manual).
const std::vector<std::string>& fact_keys();

} // namespace envlock::node
