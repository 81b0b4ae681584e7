// The lock's training and launch sections: typed, written only when present, unknown keys refused.
#include "../testutil.hpp"
#include "lock/lock.hpp"
#include "util/json.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

nlohmann::json lock_without_training() {
  auto j = util::read_json_file(test::data_path("render/good_lock.json"));
  REQUIRE(j.has_value());
  return *j;
}

const std::string k_training_sha_a = std::string(64, 'a');
const std::string k_training_sha_b = std::string(64, 'b');

nlohmann::json training_json() {
  return nlohmann::json::parse(R"({
    "checkpoint_dir": "ckpt/gpt",
    "config": {"path": "conf/train.yaml", "sha256": ")" +
                               k_training_sha_a + R"(", "size": 120},
    "data": {"prefix": "data/sample",
             "bin": {"path": "data/sample.bin", "sha256": ")" +
                               k_training_sha_a + R"(", "size": 4096},
             "idx": {"path": "data/sample.idx", "sha256": ")" +
                               k_training_sha_b + R"(", "size": 82}},
    "tokenizer": [{"path": "tok/vocab.json", "sha256": ")" +
                               k_training_sha_b + R"(", "size": 7}]})");
}

std::string training_lock_error(const nlohmann::json& j) {
  const auto l = lock::from_json(j, "envlock.lock.json");
  REQUIRE_FALSE(l.has_value());
  CHECK(l.error().code == ExitCode::usage);
  return l.error().message;
}

} // namespace

TEST_SUITE("lock.training") {
  TEST_CASE("a lock without training and launch keeps its bytes") {
    const nlohmann::json j = lock_without_training();
    const auto l = lock::from_json(j, "good_lock.json");
    REQUIRE(l.has_value());
    CHECK_FALSE(l->training.has_value());
    CHECK_FALSE(l->launch.has_value());
    CHECK(lock::to_json(*l) == j);
  }

  TEST_CASE("training and launch are read typed and written back the same") {
    nlohmann::json j = lock_without_training();
    j["training"] = training_json();
    j["launch"] = {{"command", "sbatch scripts/train.sbatch"},
                   {"directories", {{"checkpoints", "/lustre/ckpt"}, {"data", "/lustre/data"}}}};
    const auto l = lock::from_json(j, "envlock.lock.json");
    REQUIRE_MESSAGE(l.has_value(), l.error().message);
    REQUIRE(l->training.has_value());
    CHECK(l->training->config == lock::HashedFile{"conf/train.yaml", k_training_sha_a, 120});
    REQUIRE(l->training->data.has_value());
    CHECK(l->training->data->prefix == "data/sample");
    CHECK(l->training->data->idx == lock::HashedFile{"data/sample.idx", k_training_sha_b, 82});
    CHECK(l->training->tokenizer ==
          std::vector<lock::HashedFile>{{"tok/vocab.json", k_training_sha_b, 7}});
    CHECK(l->training->checkpoint_dir == "ckpt/gpt");
    CHECK(l->launch->directories.at("checkpoints") == "/lustre/ckpt");
    CHECK(lock::to_json(*l) == j);
    CHECK(util::canonical_json(lock::to_json(*l)) == util::canonical_json(j));

    const auto files = lock::training_files(*l->training);
    REQUIRE(files.size() == 4);
    CHECK(files[0].first == "training.config");
    CHECK(files[1].first == "training.tokenizer");
    CHECK(files[2].second->path == "data/sample.bin");
    CHECK(files[3].second->path == "data/sample.idx");
  }

  TEST_CASE("an empty training section is kept empty") {
    nlohmann::json j = lock_without_training();
    j["training"] = nlohmann::json::object();
    const auto l = lock::from_json(j, "envlock.lock.json");
    REQUIRE(l.has_value());
    REQUIRE(l->training.has_value());
    CHECK(lock::training_files(*l->training).empty());
    CHECK(lock::to_json(*l)["training"] == nlohmann::json::object());
  }

  TEST_CASE("unknown and missing keys are refused with their JSON path") {
    nlohmann::json j = lock_without_training();
    j["training"] = training_json();
    j["training"]["tokeniser"] = j["training"]["tokenizer"];
    j["training"].erase("tokenizer");
    CHECK(training_lock_error(j) ==
          "envlock.lock.json: training: unknown key 'tokeniser'; did you mean 'tokenizer'?");

    j["training"] = training_json();
    j["training"]["data"]["bin"].erase("sha256");
    CHECK(training_lock_error(j) == "envlock.lock.json: training.data.bin.sha256: missing");

    j["training"] = training_json();
    j["training"]["tokenizer"][0]["size"] = "7";
    CHECK(training_lock_error(j) ==
          "envlock.lock.json: training.tokenizer[0].size: must be an integer");

    j["training"] = training_json();
    j["training"]["config"]["size"] = -1;
    CHECK(training_lock_error(j) == "envlock.lock.json: training.config.size: must be >= 0");

    j["training"] = training_json();
    j["launch"] = {{"command", "x"}, {"mounts", "/lustre"}};
    CHECK(training_lock_error(j) == "envlock.lock.json: launch: unknown key 'mounts'");
  }

  TEST_CASE("launch.directories holds strings") {
    nlohmann::json j = lock_without_training();
    j["launch"] = {{"directories", {{"data", 3}}}};
    CHECK(training_lock_error(j) == "envlock.lock.json: launch.directories.data: must be a string");
    j["launch"] = "sbatch x";
    CHECK(training_lock_error(j) == "envlock.lock.json: launch: must be an object");
  }
}
