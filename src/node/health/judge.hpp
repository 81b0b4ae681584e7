// Judging the health facts (health_facts.hpp) against the lock's expect.host.health and the
// defaults docs/manual/health.md names: one check per rule (rules.hpp), in the verifier's check
// form, with group "health". A check fails on a fail finding, passes with its warnings in the
// reason otherwise, and is skipped, with the reason, where nothing applies (no InfiniBand port, no
// NVLink fabric, no dcgmi). A value that cannot be read fails its rule ("cannot be read: WHY");
// never a pass.
#pragma once

#include "lock/lock.hpp"
#include "verify/check.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace envlock::node::health {

// Whether the node should be idle (the prolog, before a job): then a process on a GPU fails.
enum class Idle { expected, not_expected };

// Whether the lock expects GPUs: then a GPU list NVML cannot give fails.
enum class GpusExpected { yes, no };

struct JudgeOptions {
  lock::HealthExpect expect;
  Idle idle = Idle::not_expected;
  GpusExpected gpus = GpusExpected::no;
  // With --idle: the processes the check itself started (the prolog's envlock-verify) are those
  // of root that descend from one of these (--own-pid). Any other process on a GPU is stray,
  // whatever its name.
  std::vector<long> own_pids;
};

// One CheckResult per rule, in health_rules() order. `facts` is collect_host_facts()'s object
// (its "gpus" and "health"); details carry "findings" and, on a failure, "drain": the first
// failing finding's drain line.
std::vector<verify::CheckResult> check_health(const nlohmann::json& facts,
                                              const JudgeOptions& options);

// The options for a lock's expectations. `envlock node --check` judges health for every lock:
// every GPU NVML sees is judged, whatever the lock says about GPUs; expect.host.health only sets
// the thresholds, and the GPUs the lock expects (expect.gpus, or expect.host's gpu.count or
// gpu.model) make a node whose NVML gives none fail.
JudgeOptions judge_options(const lock::Expect& expect, Idle idle);

} // namespace envlock::node::health
