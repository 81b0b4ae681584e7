// Records for the tests, made as envlock makes them: typed values that the formats' writers
// turn into files (the handover fixtures, the fleet's node reports, the importer's records).
#pragma once

#include "formats/build_result.hpp"
#include "formats/distribute_report.hpp"
#include "formats/fleet_report.hpp"
#include "formats/image_record.hpp"
#include "formats/node_facts.hpp"
#include "formats/report.hpp"
#include "formats/rollback_report.hpp"
#include "formats/rollout_state.hpp"
#include "formats/squashfs_result.hpp"

#include <string>
#include <vector>

namespace envlock::test {

// `unit` `times` times: repeated("b1", 32) is a sha256's 64 hex digits.
std::string repeated(const std::string& unit, std::size_t times);

// What `envlock build --push` records for registry.example.invalid/ml/megatron-train.
formats::BuildResult sample_build_result();

// What `envlock squashfs -o megatron-train+core_v0.19.0.sqsh` records for that image.
formats::SquashfsResult sample_squashfs_result();

// One check of a verification report.
formats::CheckResult sample_check(const std::string& id, const std::string& title,
                                  formats::Outcome outcome, const std::string& expected = "",
                                  const std::string& found = "", const std::string& reason = "");

// A live verification report of `hostname` with `checks`, each taking 0.5 s.
formats::Report sample_report(const std::string& hostname,
                              std::vector<formats::CheckResult> checks);

// The rollback check's report of a previous environment that can be retrieved.
formats::RollbackReport sample_rollback_report();

// The facts of an eight-GPU node (one fact missing: nvlsm).
formats::NodeFacts sample_node_facts();

// The importer's record of the sample squashfs result's image.
formats::ImageRecord sample_image_record();

} // namespace envlock::test
