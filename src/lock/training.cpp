#include "lock/training.hpp"

#include "util/field_reader.hpp"

namespace envlock::lock {

using nlohmann::json;
using util::FieldReader;
using util::Presence;

namespace {

json file_json(const HashedFile& file) {
  return {{"path", file.path}, {"sha256", file.sha256}, {"size", file.size}};
}

HashedFile read_hashed_file(FieldReader& r) {
  HashedFile file;
  file.path = r.str("path");
  file.sha256 = r.str("sha256");
  file.size = r.integer("size");
  if (!r.error() && file.size < 0) {
    r.fail(r.join("size"), "must be >= 0");
  }
  return file;
}

HashedFile read_file_at(FieldReader& parent, const char* key) {
  FieldReader r = parent.sub(key);
  HashedFile file = read_hashed_file(r);
  parent.merge(r);
  return file;
}

} // namespace

std::vector<std::pair<std::string, const HashedFile*>> training_files(const Training& training) {
  std::vector<std::pair<std::string, const HashedFile*>> out;
  if (training.config) {
    out.emplace_back("training.config", &*training.config);
  }
  if (training.tokenizer) {
    for (const auto& file : *training.tokenizer) {
      out.emplace_back("training.tokenizer", &file);
    }
  }
  if (training.data) {
    out.emplace_back("training.data", &training.data->bin);
    out.emplace_back("training.data", &training.data->idx);
  }
  return out;
}

json training_to_json(const Training& training) {
  json out = json::object();
  if (training.config) {
    out["config"] = file_json(*training.config);
  }
  if (training.tokenizer) {
    json files = json::array();
    for (const auto& file : *training.tokenizer) {
      files.push_back(file_json(file));
    }
    out["tokenizer"] = std::move(files);
  }
  if (training.data) {
    out["data"] = {{"prefix", training.data->prefix},
                   {"bin", file_json(training.data->bin)},
                   {"idx", file_json(training.data->idx)}};
  }
  if (!training.checkpoint_dir.empty()) {
    out["checkpoint_dir"] = training.checkpoint_dir;
  }
  return out;
}

json launch_to_json(const Launch& launch) {
  json out = json::object();
  if (!launch.command.empty()) {
    out["command"] = launch.command;
  }
  if (!launch.directories.empty()) {
    out["directories"] = launch.directories;
  }
  return out;
}

Training read_training(FieldReader& top) {
  Training training;
  FieldReader t = top.sub("training");
  if (t.any("config") != nullptr) {
    training.config = read_file_at(t, "config");
  }
  if (const json* files = t.array("tokenizer", Presence::optional); files != nullptr) {
    training.tokenizer.emplace();
    std::size_t i = 0;
    for (const auto& item : *files) {
      FieldReader f(item, t.origin(), "training.tokenizer[" + std::to_string(i++) + "]");
      training.tokenizer->push_back(read_hashed_file(f));
      t.merge(f);
    }
  }
  if (t.any("data") != nullptr) {
    FieldReader d = t.sub("data");
    TrainingData data;
    data.prefix = d.str("prefix");
    data.bin = read_file_at(d, "bin");
    data.idx = read_file_at(d, "idx");
    t.merge(d);
    training.data = std::move(data);
  }
  training.checkpoint_dir = t.str("checkpoint_dir", Presence::optional);
  top.merge(t);
  return training;
}

Launch read_launch(FieldReader& top) {
  Launch launch;
  FieldReader l = top.sub("launch");
  launch.command = l.str("command", Presence::optional);
  if (const json* dirs = l.object("directories", Presence::optional); dirs != nullptr) {
    for (const auto& [name, path] : dirs->items()) {
      if (!path.is_string()) {
        l.fail("launch.directories." + name, "must be a string");
        continue;
      }
      launch.directories[name] = path.get<std::string>();
    }
  }
  top.merge(l);
  return launch;
}

} // namespace envlock::lock
