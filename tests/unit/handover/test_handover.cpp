#include "../formats/samples.hpp"
#include "../testutil.hpp"
#include "handover/handover.hpp"
#include "handover/render.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

std::filesystem::path full(const std::string& name) {
  return test::data_path("handover/full/" + name);
}

handover::RecordPaths full_paths() {
  handover::RecordPaths p;
  p.lock = full("envlock.lock.json");
  p.provenance = full("provenance.json");
  p.build_result = full("build-result.json");
  p.squashfs_result = full("squashfs-result.json");
  p.node = full("node.json");
  p.reports_dir = full("reports");
  p.previous_lock = full("previous.lock.json");
  p.rollback = full("rollback-report.json");
  return p;
}

handover::RecordPaths partial_paths() {
  handover::RecordPaths p;
  p.lock = full("envlock.lock.json");
  p.squashfs_result = full("squashfs-result.json");
  return p;
}

std::string render(const handover::RecordPaths& paths, handover::HandoverFormat format) {
  const auto records = handover::read_records(paths);
  REQUIRE_MESSAGE(records.has_value(), records.error().message);
  const auto text = handover::render_handover(handover::build_handover(*records), *records, format);
  REQUIRE_MESSAGE(text.has_value(), text.error().message);
  return *text;
}

std::string handover_golden(const std::string& name) {
  const auto text = util::read_file(test::data_path("handover/" + name));
  REQUIRE_MESSAGE(text.has_value(), text.error().message);
  return *text;
}

const handover::HandoverItem* item(const handover::Handover& h, const std::string& label) {
  for (const auto& row : h.rows) {
    for (const auto& i : row.items) {
      if (i.label == label) {
        return &i;
      }
    }
  }
  return nullptr;
}

// The handover of every fixture record.
handover::Handover full_handover() {
  const auto records = handover::read_records(full_paths());
  REQUIRE_MESSAGE(records.has_value(), records.error().message);
  return handover::build_handover(*records);
}

// "VALUE <- SOURCE" of the item `label`, which must be there with a value.
std::string value_and_source(const handover::Handover& h, const std::string& label) {
  const auto* found = item(h, label);
  REQUIRE_MESSAGE(found != nullptr, label);
  REQUIRE_MESSAGE(found->value.has_value(), label);
  return *found->value + " <- " + found->source;
}

} // namespace

TEST_SUITE("report.handover") {
  TEST_CASE("seven rows, each value with its source") {
    const auto records = handover::read_records(full_paths());
    REQUIRE(records.has_value());
    const handover::Handover h = handover::build_handover(*records);
    REQUIRE(h.rows.size() == 7);
    CHECK(h.rows[0].title == "Hardware, firmware, operating-system, kernel and driver versions");
    CHECK(h.rows[6].title == "Previous environment and checkpoint-compatibility records");
    const auto* digest = item(h, "Base image digest");
    REQUIRE(digest != nullptr);
    std::string sixc;
    for (int i = 0; i < 32; ++i) {
      sixc += "6c";
    }
    CHECK(digest->value == "sha256:" + sixc);
    CHECK(digest->source == "envlock.lock.json: base_image.digest");
    const auto* nvlsm = item(h, "NVLink Subnet Manager");
    REQUIRE(nvlsm != nullptr);
    CHECK_FALSE(nvlsm->value.has_value());
    const auto* resume = item(h, "Checkpoint compatibility (resume.loss)");
    REQUIRE(resume != nullptr);
    CHECK(resume->value == "pass");
    CHECK(resume->source == "node1.json: checks[6].outcome");
  }

  TEST_CASE("rows 3 and 4 read the build and squashfs results as envlock writes them") {
    // The records are the writers' own (test_handover_fixtures.cpp): image.reference, sqsh.file
    // and sqsh.sha256, never guessed top-level keys.
    const handover::Handover h = full_handover();
    const auto value_of = [&](const std::string& label) { return value_and_source(h, label); };
    const std::string b1 = test::repeated("b1", 32);
    CHECK(value_of("Built image") == "registry.example.invalid/ml/megatron-train@sha256:" + b1 +
                                         " <- build-result.json: image.reference");
    CHECK(value_of("Built image digest") == "sha256:" + b1 + " <- build-result.json: image.digest");
    CHECK(value_of("Provenance subject digest") ==
          b1 + " <- provenance.json: subject[0].digest.sha256");
    CHECK(value_of("Squashfs file") ==
          "megatron-train+core_v0.19.0.sqsh <- squashfs-result.json: sqsh.file");
    CHECK(value_of("Squashfs sha256") ==
          test::repeated("e3", 32) + " <- squashfs-result.json: sqsh.sha256");
    CHECK(value_of("Builder") ==
          "urn:envlock:builder:buildah <- provenance.json: predicate.runDetails.builder.id");
    for (const auto& row : h.rows) {
      if (row.id == "code" || row.id == "image") {
        for (const auto& entry : row.items) {
          CHECK_MESSAGE(entry.value.has_value(), entry.label);
        }
      }
    }
  }

  TEST_CASE("rows 5 to 7 read the typed training, launch and rollback records") {
    const handover::Handover h = full_handover();
    const auto value_of = [&](const std::string& label) { return value_and_source(h, label); };
    CHECK(value_of("Training configuration") ==
          "examples/gpt3/gpt_345m.yaml <- envlock.lock.json: training.config.path");
    CHECK(value_of("sha256 of data/sample_text_document.bin") ==
          "5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d5d (10485760000 "
          "bytes) <- envlock.lock.json: training.data.bin.sha256, size");
    CHECK(value_of("Sample data") ==
          "data/sample_text_document <- envlock.lock.json: training.data.prefix");
    CHECK(value_of("Launch command") ==
          "sbatch --nodes 1 scripts/resume_test.sbatch <- envlock.lock.json: launch.command");
    CHECK(value_of("Folder checkpoints") ==
          "/lustre/ckpt/gpt345m <- envlock.lock.json: launch.directories.checkpoints");
    CHECK(value_of("Rollback check") ==
          "pass: 3 passed, 0 failed, 0 not checked; checked 2026-11-30T23:30:00Z <- "
          "rollback-report.json: outcome, summary, run.checked_at");
    CHECK(value_of("Checkpoint compatibility (checkpoint.load)") ==
          "pass <- previous-image.json: checks[1].outcome");
    for (const auto& row : h.rows) {
      if (row.id == "training" || row.id == "procedure" || row.id == "rollback") {
        for (const auto& entry : row.items) {
          CHECK_MESSAGE(entry.value.has_value(), entry.label);
        }
      }
    }
  }

  TEST_CASE("a file that is not a rollback report is refused") {
    handover::RecordPaths p;
    p.rollback = full("build-result.json");
    const auto records = handover::read_records(p);
    REQUIRE_FALSE(records.has_value());
    CHECK(records.error().code == ExitCode::usage);
    CHECK(records.error().message ==
          full("build-result.json").string() +
              ": schema: 'envlock.build-result/v1' is not envlock.rollback-report/v1");
  }

  TEST_CASE("unknown output extensions are refused") {
    const auto f = handover::handover_format_for("handover.txt");
    REQUIRE_FALSE(f.has_value());
    CHECK(f.error().message == "handover.txt: unknown extension '.txt'; use .md, .html or .json");
  }

  TEST_CASE("golden: full set of records") {
    CHECK(render(full_paths(), handover::HandoverFormat::markdown) == handover_golden("full.md"));
    CHECK(render(full_paths(), handover::HandoverFormat::html) == handover_golden("full.html"));
    CHECK(render(full_paths(), handover::HandoverFormat::json) == handover_golden("full.json"));
  }

  TEST_CASE("golden: partial records show what is missing") {
    CHECK(render(partial_paths(), handover::HandoverFormat::markdown) ==
          handover_golden("partial.md"));
    CHECK(render(partial_paths(), handover::HandoverFormat::json) ==
          handover_golden("partial.json"));
  }
}
