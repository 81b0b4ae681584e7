// Every record of src/formats/: what the writer writes, the reader reads back to the same value;
// a foreign schema and an unknown key are refused, word for word, with the JSON path.
#include "../testutil.hpp"
#include "formats/provenance.hpp"
#include "samples.hpp"

#include <doctest/doctest.h>

using namespace envlock;
using nlohmann::json;

namespace {

template <class T> std::string error_of(const json& value) {
  const auto read = formats::from_json<T>(value, "r.json");
  REQUIRE_FALSE(read.has_value());
  CHECK(read.error().code == ExitCode::usage);
  return read.error().message;
}

template <class T> void round_trips(const T& record) {
  const json written = formats::to_json(record);
  const auto read = formats::from_json<T>(written, "r.json");
  REQUIRE_MESSAGE(read.has_value(), read.error().message);
  CHECK(formats::to_json(*read) == written);
}

formats::FleetReport sample_fleet_report() {
  formats::FleetReport r;
  r.image = "train.sqsh";
  r.image_digest = "sha256:" + test::repeated("ab", 32);
  r.lock_sha256 = test::repeated("c1", 32);
  r.reference_node = "node1";
  r.nodes = {"node1", "node2", "node3"};
  r.checks = {"gpu.count", "torch.version"};
  r.node_outcomes = {{"node1", formats::NodeOutcome::pass},
                     {"node2", formats::NodeOutcome::fail},
                     {"node3", formats::NodeOutcome::missing}};
  r.matrix = {{"node1", {{"gpu.count", "pass"}, {"torch.version", "pass"}}},
              {"node2", {{"gpu.count", "pass"}, {"torch.version", "fail"}}}};
  r.chain = {{"node1", "pass"}, {"node2", "skip"}};
  r.failures = {{"node2", "torch.version", "2.13.0", "2.12.0", "torch 2.12.0 is not 2.13.0", ""},
                {"node2", "health.gpu.row_remap_pending", "no row remap pending",
                 "pending on GPU 3", "GPU 3: a row remap is pending; drain, reset the GPU",
                 "health.gpu.row_remap_pending GPU 3: drain, reset the GPU"}};
  r.health = {{"node1", "pass"}, {"node2", "fail"}};
  r.outliers = {
      {"node2", "gpu.0.bandwidth", "copy_bandwidth", "TB/s", 3.1, 4.0, "reference node1"}};
  r.missing = {{"node3", "no report; job 12 COMPLETED"}};
  r.run = {"12", "/shared/acceptance/run1"};
  return r;
}

} // namespace

TEST_SUITE("formats.records") {
  TEST_CASE("each record reads back what its writer wrote") {
    round_trips(test::sample_build_result());
    round_trips(test::sample_squashfs_result());
    round_trips(test::sample_report(
        "node1",
        {test::sample_check("cuda.driver", "CUDA driver", formats::Outcome::pass, "13.3", "13.3"),
         test::sample_check("torch.version", "PyTorch", formats::Outcome::fail, "2.13.0", "2.12.0",
                            "another torch")}));
    round_trips(test::sample_rollback_report());
    round_trips(test::sample_node_facts());
    round_trips(test::sample_image_record());
    round_trips(sample_fleet_report());
    formats::DistributeReport distribute;
    distribute.file = "train.sqsh";
    distribute.dest = "/local/train.sqsh";
    distribute.expected = test::repeated("e3", 32);
    distribute.nodes = {{"node1", "pass", test::repeated("e3", 32), ""},
                        {"node2", "missing", "", "no result"}};
    round_trips(distribute);
    formats::RolloutState state;
    state.image = "train.sqsh";
    state.image_digest = "sha256:" + test::repeated("ab", 32);
    state.batches = {{"node1"}, {"node2", "node3"}};
    state.nodes = {{"node1", {"passed", state.image_digest, 1, "/shared/ro/batch-1"}}};
    round_trips(state);
  }

  TEST_CASE("the build result: image.reference is read, not guessed") {
    json written = formats::to_json(test::sample_build_result());
    CHECK(written["image"]["reference"] ==
          "registry.example.invalid/ml/megatron-train@sha256:" + test::repeated("b1", 32));
    written["image"]["reference"] = "registry.example.invalid/ml/megatron-train:core_v0.19.0";
    CHECK(error_of<formats::BuildResult>(written) ==
          "r.json: image.reference: 'registry.example.invalid/ml/megatron-train:core_v0.19.0' is "
          "not registry.example.invalid/ml/megatron-train@sha256:" +
              test::repeated("b1", 32) + " (image.repository@image.digest)");
  }

  TEST_CASE("a foreign schema is refused") {
    CHECK(error_of<formats::SquashfsResult>(formats::to_json(test::sample_build_result())) ==
          "r.json: schema: 'envlock.build-result/v1' is not envlock.squashfs-result/v1");
    CHECK(error_of<formats::RollbackReport>(formats::to_json(test::sample_build_result())) ==
          "r.json: schema: 'envlock.build-result/v1' is not envlock.rollback-report/v1");
    CHECK(error_of<formats::Report>(json::object()) == "r.json: schema: missing");
    CHECK(error_of<formats::ImageRecord>(json::array()) == "r.json: the image record: must be an "
                                                           "object");
  }

  TEST_CASE("an unknown key is refused with its path and the closest known key") {
    json result = formats::to_json(test::sample_squashfs_result());
    result["sqsh"]["sha265"] = "x";
    CHECK(error_of<formats::SquashfsResult>(result) ==
          "r.json: sqsh: unknown key 'sha265'; did you mean 'sha256'?");
    json facts = formats::to_json(test::sample_node_facts());
    facts["gpus"][3]["helth"] = "ok";
    CHECK(error_of<formats::NodeFacts>(facts) ==
          "r.json: gpus[3]: unknown key 'helth'; did you mean 'health'?");
    json top = formats::to_json(test::sample_build_result());
    top["pushd"] = true;
    CHECK(error_of<formats::BuildResult>(top) ==
          "r.json: the build result: unknown key 'pushd'; did you mean 'pushed'?");
  }

  TEST_CASE("node facts: the health facts read back as written, their three parts checked") {
    formats::NodeFacts facts = test::sample_node_facts();
    facts.health = json{
        {"nvml", {{"value", "nvml (libnvidia-ml.so.1)"}, {"source", "dlopen"}}},
        {"gpus", json::array({{{"index", 0},
                               {"lost", false},
                               {"remapped_rows.pending",
                                {{"value", true}, {"source", "nvmlDeviceGetRemappedRows"}}}}})},
        {"host", {{"nvidia_peermem", {{"value", "loaded"}, {"source", "/sys/module"}}}}}};
    const json written = formats::to_json(facts);
    const auto back = formats::from_json<formats::NodeFacts>(written, "r.json");
    REQUIRE_MESSAGE(back.has_value(), back.error().message);
    CHECK(*back == facts);
    CHECK(formats::to_json(*back) == written);
    json bad = written;
    bad["health"].erase("nvml");
    CHECK(error_of<formats::NodeFacts>(bad) == "r.json: health.nvml: missing");
    bad = written;
    bad["health"]["hosts"] = json::object();
    CHECK(error_of<formats::NodeFacts>(bad) ==
          "r.json: health: unknown key 'hosts'; did you mean 'host'?");
    bad = written;
    bad["health"]["gpus"] = json::object();
    CHECK(error_of<formats::NodeFacts>(bad) == "r.json: health.gpus: must be an array");
    // Facts read without health write none.
    CHECK_FALSE(formats::to_json(test::sample_node_facts()).contains("health"));
  }

  TEST_CASE("a record is read as written: wrong types and counts are named") {
    json report = formats::to_json(test::sample_report(
        "node1", {test::sample_check("cuda.driver", "CUDA driver", formats::Outcome::pass)}));
    json bad = report;
    bad["checks"][0]["outcome"] = "passed";
    CHECK(error_of<formats::Report>(bad) ==
          "r.json: checks[0].outcome: 'passed' is not one of pass, fail, skip");
    bad = report;
    bad["summary"]["failed"] = 1;
    CHECK(error_of<formats::Report>(bad) == "r.json: summary.failed: 1, but the checks count 0");
    bad = report;
    bad["outcome"] = "fail";
    CHECK(error_of<formats::Report>(bad) == "r.json: outcome: 'fail', but the checks give 'pass'");
    bad = report;
    bad["run"]["check_seconds"].erase("cuda.driver");
    CHECK(error_of<formats::Report>(bad) == "r.json: run.check_seconds.cuda.driver: missing");
    json squashed = formats::to_json(test::sample_squashfs_result());
    squashed["sqsh"]["size"] = "21474836480";
    CHECK(error_of<formats::SquashfsResult>(squashed) ==
          "r.json: sqsh.size: must be an integer >= 0");
    squashed = formats::to_json(test::sample_squashfs_result());
    squashed["sqsh"]["sha256"] = "E3";
    CHECK(error_of<formats::SquashfsResult>(squashed) ==
          "r.json: sqsh.sha256: must be 64 lowercase hex digits, not 'E3'");
  }

  TEST_CASE("the squashfs result beside a .sqsh: one finder") {
    const auto dir = test::temp_dir();
    const auto sqsh = dir.path() / "megatron-train+core_v0.19.0.sqsh";
    CHECK(formats::squashfs_result_path_for(sqsh) ==
          dir.path() / "megatron-train+core_v0.19.0.squashfs-result.json");
    auto missing = formats::find_squashfs_result_beside(sqsh);
    REQUIRE_FALSE(missing.has_value());
    CHECK(missing.error().message ==
          "no squashfs result describes " + sqsh.string() + " (looked for " +
              (dir.path() / "megatron-train+core_v0.19.0.squashfs-result.json").string() + ", " +
              (dir.path() / "squashfs-result.json").string() + "); give --result FILE");
    // squashfs-result.json of another image is passed over, with what it describes.
    formats::SquashfsResult other = test::sample_squashfs_result();
    other.file_name = "other.sqsh";
    REQUIRE(formats::write_squashfs_result(dir.path() / "squashfs-result.json", other));
    CHECK(formats::find_squashfs_result_beside(sqsh).error().message.find(
              "squashfs-result.json (it describes other.sqsh)") != std::string::npos);
    REQUIRE(formats::write_squashfs_result(formats::squashfs_result_path_for(sqsh),
                                           test::sample_squashfs_result()));
    const auto found = formats::find_squashfs_result_beside(sqsh);
    REQUIRE(found.has_value());
    CHECK(found->path == formats::squashfs_result_path_for(sqsh));
    CHECK(found->result == test::sample_squashfs_result());
    // In a folder: the only one, or none when there are several.
    CHECK(formats::squashfs_results_in(dir.path()) ==
          std::vector<std::filesystem::path>{dir.path() /
                                                 "megatron-train+core_v0.19.0.squashfs-result.json",
                                             dir.path() / "squashfs-result.json"});
    CHECK_FALSE(formats::squashfs_result_in(dir.path()).has_value());
    std::filesystem::remove(dir.path() / "squashfs-result.json");
    CHECK(formats::squashfs_result_in(dir.path()) ==
          dir.path() / "megatron-train+core_v0.19.0.squashfs-result.json");
  }

  TEST_CASE("where the other records live") {
    CHECK(formats::image_record_path_for("/cache/images/k.sqsh") == "/cache/images/k.sqsh.json");
    CHECK(formats::build_result_candidates("p/train.lock.json") ==
          std::vector<std::filesystem::path>{"p/build-result.json", "p/train.build-result.json"});
    CHECK(formats::build_result_candidates("p/envlock.lock.json") ==
          std::vector<std::filesystem::path>{"p/build-result.json", "p/envlock.build-result.json"});
  }
}
