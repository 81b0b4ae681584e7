// The lock's "training" and "launch" sections: what a colleague needs to repeat the training
// sample (the configuration, tokenizer and sample data files, each by sha256 and size; the
// checkpoint folder) and how it is started (the command, the folders it uses). Copied from the
// manifest's `training:` and `launch:` by `envlock lock`, which hashes the files;
// docs/formats/lock.md describes each field.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::util {
class FieldReader;
} // namespace envlock::util

namespace envlock::lock {

// A file the lock records by content: its path relative to the manifest's folder, its sha256
// and its size in bytes.
struct HashedFile {
  std::string path;
  std::string sha256;
  std::int64_t size = 0;
  bool operator==(const HashedFile&) const = default;
};

// A Megatron-LM indexed dataset: PREFIX.bin and PREFIX.idx.
struct TrainingData {
  std::string prefix; // relative to the manifest's folder, without .bin/.idx
  HashedFile bin;
  HashedFile idx;
  bool operator==(const TrainingData&) const = default;
};

// training: each part only when the manifest gives it.
struct Training {
  std::optional<HashedFile> config; // the training configuration file
  std::optional<std::vector<HashedFile>>
      tokenizer;                    // the tokenizer's files, in the manifest's order
  std::optional<TrainingData> data; // the sample data
  std::string checkpoint_dir;       // as written, not read; "" when not given
  bool operator==(const Training&) const = default;
};

// launch: how training is started.
struct Launch {
  std::string command;                            // "" when not given
  std::map<std::string, std::string> directories; // name -> path, as written
  bool operator==(const Launch&) const = default;
};

// The hashed files of `training` in the lock's order (config, tokenizer, data .bin, data .idx),
// each with the field that names it ("training.config", "training.tokenizer",
// "training.data").
std::vector<std::pair<std::string, const HashedFile*>> training_files(const Training& training);

nlohmann::json training_to_json(const Training& training);
nlohmann::json launch_to_json(const Launch& launch);

// Read the sections through `top` (the lock's reader), which records the first error with the
// field's path: "envlock.lock.json: training.data.bin.sha256: missing",
// "envlock.lock.json: training: unknown key 'tokeniser'; did you mean 'tokenizer'?".
Training read_training(util::FieldReader& top);
Launch read_launch(util::FieldReader& top);

} // namespace envlock::lock
