// The manifest's `training:` and `launch:` sections (docs/manual/manifest.md).
#include "manifest/sections.hpp"
#include "util/fs.hpp"

namespace envlock::manifest {

namespace {

constexpr std::string_view k_inside = "a relative path inside the manifest's folder";

// A non-empty path relative to the manifest's folder that stays inside it.
Result<std::string> relative_file(const Reader& reader, const Field& field) {
  ENVLOCK_TRY_ASSIGN(std::string path, reader.non_empty_string(field));
  if (!util::is_relative_inside(path)) {
    return reader.format_error(field, k_inside);
  }
  return path;
}

Result<std::vector<std::string>> relative_files(const Reader& reader, const Field& field) {
  if (!field.value.IsSequence()) {
    return reader.type_error(field, "a list of strings");
  }
  std::vector<std::string> out;
  std::size_t index = 0;
  for (const auto& item : field.value) {
    const Field element{field.path + "[" + std::to_string(index++) + "]", YAML::Node(), item};
    ENVLOCK_TRY_ASSIGN(std::string path, relative_file(reader, element));
    out.push_back(std::move(path));
  }
  return out;
}

} // namespace

Result<Training> read_training(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, {"config", "tokenizer", "data", "checkpoint_dir"}));
  Training training;
  if (const auto config = reader.find(field, "config")) {
    ENVLOCK_TRY_ASSIGN(training.config, relative_file(reader, *config));
  }
  if (const auto tokenizer = reader.find(field, "tokenizer")) {
    ENVLOCK_TRY_ASSIGN(training.tokenizer, relative_files(reader, *tokenizer));
  }
  if (const auto data = reader.find(field, "data")) {
    ENVLOCK_TRY_ASSIGN(training.data, relative_file(reader, *data));
    if (training.data->ends_with(".bin") || training.data->ends_with(".idx")) {
      return reader.format_error(*data, "a Megatron data prefix without .bin or .idx "
                                        "(PREFIX.bin and PREFIX.idx are read)");
    }
  }
  if (const auto checkpoint_dir = reader.find(field, "checkpoint_dir")) {
    ENVLOCK_TRY_ASSIGN(training.checkpoint_dir, reader.non_empty_string(*checkpoint_dir));
  }
  return training;
}

Result<Launch> read_launch(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, {"command", "directories"}));
  Launch launch;
  if (const auto command = reader.find(field, "command")) {
    ENVLOCK_TRY_ASSIGN(launch.command, reader.non_empty_string(*command));
  }
  if (const auto directories = reader.find(field, "directories")) {
    ENVLOCK_TRY(reader.mapping(*directories));
    for (const auto& entry : reader.entries(*directories)) {
      ENVLOCK_TRY_ASSIGN(launch.directories[entry.key.Scalar()], reader.non_empty_string(entry));
    }
  }
  return launch;
}

} // namespace envlock::manifest
