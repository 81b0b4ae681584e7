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
};

// One CheckResult per rule, in health_rules() order. `facts` is collect_host_facts()'s object
// (its "gpus" and "health"); details carry "findings" and, on a failure, "drain": the first
// failing finding's drain line.
std::vector<verify::CheckResult> check_health(const nlohmann::json& facts,
                                              const JudgeOptions& options);

// Whether `envlock node --check` judges health for a lock: it declares expect.host.health or
// expects GPUs (expect.gpus.count > 0).
bool judges_health(const lock::Expect& expect);

// The options for a lock's expectations.
JudgeOptions judge_options(const lock::Expect& expect, Idle idle);

} // namespace envlock::node::health
