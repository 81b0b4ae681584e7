// The fleet's SDC comparison (fleet/sdc.hpp) through aggregate(): 640 node reports of 8 GPUs,
// one GPU computing another bit from step 768 on, is named and nothing else; a tie is said.
#include "fleet/fleet_report.hpp"
#include "formats/fleet_report.hpp"
#include "formats/sdc.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

namespace envlock {

namespace {

// 64 hex digits from two numbers (a digest stand-in the record's reader accepts).
std::string hex64(std::uint64_t a, std::uint64_t b) {
  char text[65];
  std::snprintf(text, sizeof text, "%016llx%016llx%016llx%016llx",                      // NOLINT
                static_cast<unsigned long long>(a), static_cast<unsigned long long>(b), // NOLINT
                static_cast<unsigned long long>(a ^ 0x5DC), 0ULL);                      // NOLINT
  return text;
}

struct Gpu {
  std::uint64_t corrupt_from = 0; // 0: never
  std::uint64_t variant = 1;      // the digests it gives from corrupt_from on
  std::string driver = "580.159.04";
  bool repeated = true;
};

formats::CheckResult sdc_check(int index, const std::string& node, const Gpu& gpu) {
  formats::SdcDigests d;
  d.chain = "bf16-16384x16384x4096-fold/v1";
  d.uuid = "GPU-" + node + "-" + std::to_string(index);
  d.name = "NVIDIA H100 80GB HBM3";
  d.serial = "16516241" + std::to_string(index);
  d.driver_version = gpu.driver;
  d.cuda_driver_api = "13.0";
  d.cublaslt_version = "13.1.0";
  d.algo.id = 66;
  d.every = 256;
  d.steps = 1024;
  for (std::uint64_t step = 256; step <= d.steps; step += 256) {
    const bool wrong = gpu.corrupt_from != 0 && step >= gpu.corrupt_from;
    d.digests.emplace_back(step, hex64(step, wrong ? gpu.variant : 0));
  }
  d.repeated = gpu.repeated;
  d.repeat_sha256 = d.digests.front().second;
  formats::CheckResult check;
  check.id = "gpu." + std::to_string(index) + ".sdc";
  check.title = "SDC chain";
  check.outcome = formats::Outcome::pass;
  check.details = formats::to_json(d);
  return check;
}

fleet::NodeInput node_of(const std::string& name, const std::vector<Gpu>& gpus) {
  fleet::NodeInput node;
  node.node = name;
  node.reported = true;
  node.exit_code = 0;
  node.report.mode = "live";
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    node.report.checks.push_back(sdc_check(static_cast<int>(i), name, gpus[i]));
  }
  return node;
}

std::string name_of(int i) {
  return "gpu" + std::to_string(1000 + i);
}

} // namespace

TEST_CASE("fleet sdc: one flipped GPU among 640 nodes of 8 is named, and nothing else") {
  std::vector<fleet::NodeInput> nodes;
  for (int i = 0; i < 640; ++i) {
    std::vector<Gpu> gpus(8);
    if (i == 417) {
      gpus[5].corrupt_from = 768;
    }
    nodes.push_back(node_of(name_of(i), gpus));
  }
  const formats::FleetReport report = fleet::aggregate(nodes, {});
  REQUIRE(report.sdc.groups.size() == 1);
  CHECK(report.sdc.groups[0].gpus == 5120);
  CHECK(report.sdc.groups[0].nodes == 640);
  CHECK(report.sdc.groups[0].verdict == "minority");
  REQUIRE(report.sdc.minority.size() == 1);
  const auto& m = report.sdc.minority[0];
  CHECK(m.node == name_of(417));
  CHECK(m.gpu == 5);
  CHECK(m.uuid == "GPU-" + name_of(417) + "-5");
  CHECK(m.step == 768);
  CHECK(m.majority_gpus == 5119);
  CHECK(m.compared_gpus == 5120);
  REQUIRE(report.failures.size() == 1);
  CHECK(report.failures[0].node == name_of(417));
  CHECK(report.failures[0].check == "sdc.gpu.minority");
  CHECK(report.failures[0].drain ==
        "sdc.gpu.minority GPU 5: isolate the GPU, return it for repair");
  CHECK(report.nodes_with(formats::NodeOutcome::fail) == std::vector<std::string>{name_of(417)});
  CHECK(report.nodes_with(formats::NodeOutcome::pass).size() == 639);

  // The record round-trips through its reader.
  const auto back = formats::from_json<formats::FleetReport>(formats::to_json(report), "fleet");
  REQUIRE(back);
  CHECK(back->sdc == report.sdc);
}

TEST_CASE("fleet sdc: a tie is said and names nobody; a lone GPU is too few to judge") {
  // Two nodes of one GPU each under driver A that disagree from step 512; one GPU under driver B.
  Gpu a;
  Gpu b;
  b.corrupt_from = 512;
  Gpu lone;
  lone.driver = "575.57.08";
  const std::vector<fleet::NodeInput> nodes = {node_of("n1", {a}), node_of("n2", {b}),
                                               node_of("n3", {lone})};
  const formats::FleetReport report = fleet::aggregate(nodes, {});
  REQUIRE(report.sdc.groups.size() == 2);
  const auto& big = report.sdc.groups[0].group.find("580.159.04") != std::string::npos
                        ? report.sdc.groups[0]
                        : report.sdc.groups[1];
  const auto& small = &big == &report.sdc.groups[0] ? report.sdc.groups[1] : report.sdc.groups[0];
  CHECK(big.verdict == "tie");
  CHECK(big.tie_step == 512);
  REQUIRE(big.tie_sides.size() == 2);
  CHECK(big.tie_sides[0].second == 1);
  CHECK(big.tie_sides[1].second == 1);
  CHECK(small.verdict == "too_small");
  CHECK(report.sdc.minority.empty());
  CHECK(report.failures.empty());
  CHECK(fleet::fleet_report_to_markdown(report).find("tie at step 512") != std::string::npos);
}

TEST_CASE("fleet sdc: a GPU whose chain did not repeat is left out, never named") {
  std::vector<fleet::NodeInput> nodes;
  for (int i = 0; i < 4; ++i) {
    std::vector<Gpu> gpus(2);
    if (i == 2) {
      gpus[1].corrupt_from = 256;
      gpus[1].repeated = false;
    }
    nodes.push_back(node_of(name_of(i), gpus));
  }
  const formats::FleetReport report = fleet::aggregate(nodes, {});
  REQUIRE(report.sdc.groups.size() == 1);
  CHECK(report.sdc.groups[0].verdict == "agree");
  CHECK(report.sdc.groups[0].gpus == 7);
  CHECK(report.sdc.groups[0].left_out ==
        std::vector<std::string>{name_of(2) + " GPU 1: its chain did not repeat on itself"});
  CHECK(report.sdc.minority.empty());
  CHECK(report.failures.empty());
}

} // namespace envlock
