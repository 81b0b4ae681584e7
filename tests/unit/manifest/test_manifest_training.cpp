// The manifest's training: and launch: sections: what they read, and each error word for word.
#include "manifest_testutil.hpp"

using namespace envlock;

TEST_SUITE_BEGIN("manifest");

TEST_CASE("manifest: training and launch are read as written") {
  const auto result = test::parse_data("good_full.yaml");
  REQUIRE_MESSAGE(result.has_value(), result.error().message);
  REQUIRE(result->training.has_value());
  const manifest::Training& t = *result->training;
  CHECK(t.config == "configs/gpt_345m.yaml");
  CHECK(t.tokenizer == std::vector<std::string>{"tokenizer/vocab.json", "tokenizer/merges.txt"});
  CHECK(t.data == "data/sample_text_document");
  CHECK(t.checkpoint_dir == "/lustre/ckpt/gpt345m");
  REQUIRE(result->launch.has_value());
  CHECK(result->launch->command == "sbatch --nodes 1 scripts/train.sbatch");
  CHECK(result->launch->directories ==
        std::map<std::string, std::string>{{"checkpoints", "/lustre/ckpt/gpt345m"},
                                           {"data", "/lustre/data"}});
}

TEST_CASE("manifest: without training and launch, neither is set") {
  const auto result = test::parse_data("good_minimal.yaml");
  REQUIRE(result.has_value());
  CHECK_FALSE(result->training.has_value());
  CHECK_FALSE(result->launch.has_value());
  CHECK_FALSE(manifest::to_json(*result).contains("training"));
  CHECK_FALSE(manifest::to_json(*result).contains("launch"));
}

TEST_CASE("manifest: training and launch in the JSON form") {
  const auto result = test::parse_data("good_full.yaml");
  REQUIRE(result.has_value());
  const nlohmann::json j = manifest::to_json(*result);
  CHECK(j["training"] == nlohmann::json::parse(R"({"checkpoint_dir": "/lustre/ckpt/gpt345m",
    "config": "configs/gpt_345m.yaml", "data": "data/sample_text_document",
    "tokenizer": ["tokenizer/vocab.json", "tokenizer/merges.txt"]})"));
  CHECK(j["launch"] == nlohmann::json::parse(R"({"command": "sbatch --nodes 1 scripts/train.sbatch",
    "directories": {"checkpoints": "/lustre/ckpt/gpt345m", "data": "/lustre/data"}})"));
}

TEST_CASE("manifest error: a training file outside the manifest's folder") {
  CHECK(test::parse_error("bad_training_outside.yaml") ==
        "bad_training_outside.yaml:15:11: 'training.config' must be a relative path inside the "
        "manifest's folder, got '../conf/train.yaml'\n"
        "  config: ../conf/train.yaml\n"
        "          ^");
}

TEST_CASE("manifest error: training.data names a file, not the prefix") {
  CHECK(test::parse_error("bad_training_data_suffix.yaml") ==
        "bad_training_data_suffix.yaml:15:9: 'training.data' must be a Megatron data prefix "
        "without .bin or .idx (PREFIX.bin and PREFIX.idx are read), got "
        "'data/sample_text_document.bin'\n"
        "  data: data/sample_text_document.bin\n"
        "        ^");
}

TEST_CASE("manifest error: a misspelt key in training") {
  CHECK(test::parse_error("bad_training_unknown_key.yaml") ==
        "bad_training_unknown_key.yaml:15:3: unknown key 'tokeniser' in 'training'; did you mean "
        "'tokenizer'?\n"
        "  tokeniser: [tokenizer/vocab.json]\n"
        "  ^");
}

TEST_CASE("manifest error: training.tokenizer is a list") {
  CHECK(test::parse_error("bad_training_tokenizer_type.yaml") ==
        "bad_training_tokenizer_type.yaml:15:14: 'training.tokenizer' must be a list of strings, "
        "got a string\n"
        "  tokenizer: tokenizer/vocab.json\n"
        "             ^");
}

TEST_CASE("manifest error: a launch folder without a path") {
  CHECK(test::parse_error("bad_launch_directory.yaml") ==
        "bad_launch_directory.yaml:17:5: 'launch.directories.checkpoints' must be a string, got "
        "null\n"
        "    checkpoints:\n"
        "    ^");
}

TEST_SUITE_END();
