// The handover fixtures (tests/data/handover/full/) are what envlock's writers write: each record
// is made here, typed, and written by its own writer (formats/*.hpp, lock::to_json,
// provenance::build_statement), and the files must be exactly those bytes. A fixture in a shape
// envlock never writes cannot pass. ENVLOCK_WRITE_FIXTURES=1 writes them (and the handover
// goldens made from them) instead; review the diff.
#include "../formats/samples.hpp"
#include "../testutil.hpp"
#include "formats/provenance.hpp"
#include "handover/handover.hpp"
#include "handover/render.hpp"
#include "lock/lock.hpp"
#include "provenance/statement.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

#include <cstdlib>
#include <doctest/doctest.h>
#include <map>

using namespace envlock;
namespace fs = std::filesystem;

namespace {

fs::path fixture(const std::string& name) {
  return test::data_path("handover/full/" + name);
}

lock::Lock fixture_lock(const std::string& name) {
  auto lock = lock::read_lock(fixture(name));
  REQUIRE_MESSAGE(lock.has_value(), lock.error().message);
  return *lock;
}

formats::Report node_report(const std::string& node, formats::Outcome torch) {
  using formats::Outcome;
  using test::sample_check;
  return test::sample_report(
      node, {sample_check("gpu.count", "GPU count", Outcome::pass, "8", "8"),
             sample_check("cuda.driver", "CUDA driver", Outcome::pass, "13.3", "13.3"),
             sample_check("nccl.version", "NCCL library loaded", Outcome::pass, "2.30.7", "2.30.7"),
             torch == Outcome::pass
                 ? sample_check("torch.version", "PyTorch", Outcome::pass, "2.13.0a0+8145d630e8",
                                "2.13.0a0+8145d630e8")
                 : sample_check("torch.version", "PyTorch", Outcome::fail, "2.13.0a0+8145d630e8",
                                "2.12.0", "torch 2.12.0 is not the lock's 2.13.0a0+8145d630e8"),
             sample_check("resume.compute", "One BF16 training step (SDPA, fused AdamW)",
                          Outcome::pass, "finite non-zero gradients, every parameter updated",
                          "SDPA backend flash, 355 parameters in 12 tensors on cuda:0"),
             sample_check("resume.runs", "Training runs", Outcome::pass, "3 runs exit 0",
                          "3 runs exit 0"),
             sample_check("resume.loss", "Loss after resuming", Outcome::pass, "|diff| <= 0",
                          "identical"),
             sample_check("image.labels", "Image labels", Outcome::skip, "", "",
                          "the image has no envlock labels")});
}

// Every fixture file and its bytes, as the writers write them.
// The node's facts as `envlock node --check` writes them: a host check and health checks, one
// passing with a warning and one skipped (the handover's "Node health" item reads them).
formats::NodeFacts node_facts_checked() {
  using formats::Outcome;
  formats::NodeFacts facts = test::sample_node_facts();
  auto driver =
      test::sample_check("host.driver", "Host driver", Outcome::pass, "580.*", "580.65.06");
  driver.details = {{"source", "/proc/driver/nvidia/version"}};
  auto remap = test::sample_check("health.gpu.row_remap_pending", "No row remap pending",
                                  Outcome::pass, "no remap pending", "not pending (GPUs 0-7)");
  auto persistence = test::sample_check("health.gpu.persistence_off", "Persistence mode on",
                                        Outcome::pass, "enabled", "enabled (GPUs 0-6)");
  persistence.reason = "warning: GPU 7: persistence mode is disabled; enable persistence mode";
  persistence.details = {
      {"findings", nlohmann::json::array({{{"action", "enable persistence mode"},
                                           {"id", "health.gpu.persistence_off"},
                                           {"severity", "warn"},
                                           {"source", "nvmlDeviceGetPersistenceMode"},
                                           {"subject", "GPU 7"},
                                           {"what", "persistence mode is disabled"}}})}};
  auto ib = test::sample_check("health.ib.port_down", "InfiniBand/RoCE ports active", Outcome::skip,
                               "every port ACTIVE", "");
  ib.reason = "no InfiniBand/RoCE port";
  facts.checks = {driver, remap, persistence, ib};
  return facts;
}

std::map<std::string, std::string> fixture_files() {
  std::map<std::string, std::string> files;
  const lock::Lock current = fixture_lock("envlock.lock.json");
  const lock::Lock previous = fixture_lock("previous.lock.json");
  files["envlock.lock.json"] = util::canonical_json(lock::to_json(current));
  files["previous.lock.json"] = util::canonical_json(lock::to_json(previous));

  formats::BuildResult build = test::sample_build_result();
  build.lock_sha256 = lock::lock_sha256(current);
  files["build-result.json"] = util::canonical_json(formats::to_json(build));
  const formats::SquashfsResult squashed = test::sample_squashfs_result();
  files["squashfs-result.json"] = util::canonical_json(formats::to_json(squashed));
  files["node.json"] = util::canonical_json(formats::to_json(node_facts_checked()));

  provenance::ProvenanceInputs inputs;
  inputs.lock = current;
  inputs.lock_file_name = "envlock.lock.json";
  inputs.manifest = {{"envlock", 1},
                     {"image", {{"name", "megatron-train"}, {"tag", "core_v0.19.0"}}},
                     {"base", {{"image", current.base_image.reference}}}};
  static_cast<formats::BuildResult&>(inputs.build) = build;
  inputs.build.file_name = "build-result.json";
  inputs.build.file_sha256 = util::sha256_hex(files["build-result.json"]);
  inputs.sqsh = provenance::FileSubject{squashed.file_name, squashed.sha256};
  inputs.envlock_version = "0.1.0";
  files["provenance.json"] = util::canonical_json(provenance::make_statement(inputs));

  formats::RollbackReport rollback = test::sample_rollback_report();
  rollback.previous_lock_sha256 = lock::lock_sha256(previous);
  rollback.current_lock_sha256 = lock::lock_sha256(current);
  files["rollback-report.json"] = util::canonical_json(formats::to_json(rollback));

  files["reports/node1.json"] =
      util::canonical_json(formats::to_json(node_report("node1", formats::Outcome::pass)));
  files["reports/node2.json"] =
      util::canonical_json(formats::to_json(node_report("node2", formats::Outcome::fail)));
  using formats::Outcome;
  files["reports/previous-image.json"] = util::canonical_json(formats::to_json(test::sample_report(
      "node1", {test::sample_check("checkpoint.files", "Checkpoint files", Outcome::pass,
                                   "rank0.pt, complete torch.save archives",
                                   "1 file, 20480 bytes, sha256 " + test::repeated("7c", 32)),
                test::sample_check("checkpoint.load", "Checkpoint loaded and trained on",
                                   Outcome::pass, "loads, then 5 steps with finite losses",
                                   "loaded step 50, trained steps 51-55, losses 6.1 .. 5.9")})));
  return files;
}

bool writing() {
  const char* write = std::getenv("ENVLOCK_WRITE_FIXTURES");
  return write != nullptr && std::string(write) == "1";
}

handover::RecordPaths paths(bool all) {
  handover::RecordPaths p;
  p.lock = fixture("envlock.lock.json");
  p.squashfs_result = fixture("squashfs-result.json");
  if (all) {
    p.provenance = fixture("provenance.json");
    p.build_result = fixture("build-result.json");
    p.node = fixture("node.json");
    p.reports_dir = fixture("reports");
    p.previous_lock = fixture("previous.lock.json");
    p.rollback = fixture("rollback-report.json");
  }
  return p;
}

} // namespace

TEST_SUITE("report.handover") {
  TEST_CASE("the handover fixtures are what envlock's writers write") {
    for (const auto& file : fixture_files()) {
      // Named apart: clang 14 cannot capture a structured binding in doctest's lambdas.
      const std::string& name = file.first;
      const std::string& bytes = file.second;
      if (writing()) {
        test::write_text(fixture(name), bytes);
      }
      const auto on_disk = util::read_file(fixture(name));
      REQUIRE_MESSAGE(on_disk.has_value(), name);
      CHECK_MESSAGE(*on_disk == bytes, (name + " differs from what the writer writes"));
    }
    if (writing()) {
      using handover::HandoverFormat;
      for (const auto& [name, all, format] :
           {std::tuple{"full.md", true, HandoverFormat::markdown},
            std::tuple{"full.html", true, HandoverFormat::html},
            std::tuple{"full.json", true, HandoverFormat::json},
            std::tuple{"partial.md", false, HandoverFormat::markdown},
            std::tuple{"partial.json", false, HandoverFormat::json}}) {
        const auto records = handover::read_records(paths(all));
        REQUIRE_MESSAGE(records.has_value(), records.error().message);
        const auto text =
            handover::render_handover(handover::build_handover(*records), *records, format);
        REQUIRE(text.has_value());
        test::write_text(test::data_path(std::string("handover/") + name), *text);
      }
    }
  }
}
