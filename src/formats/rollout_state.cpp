#include "formats/rollout_state.hpp"

#include <algorithm>

namespace envlock::formats {

using nlohmann::json;
using util::FieldReader;

std::size_t RolloutState::next_batch() const {
  for (std::size_t i = 0; i < batches.size(); ++i) {
    for (const auto& node : batches[i]) {
      const auto it = nodes.find(node);
      if (it == nodes.end() || it->second.status != "passed" ||
          it->second.image_digest != image_digest) {
        return i;
      }
    }
  }
  return batches.size();
}

json to_json(const RolloutState& state) {
  json nodes = json::object();
  for (const auto& [node, record] : state.nodes) {
    nodes[node] = {{"status", record.status},
                   {"image_digest", record.image_digest},
                   {"batch", record.batch},
                   {"results", record.results}};
  }
  return {{"schema", k_rollout_state_schema},
          {"image", state.image},
          {"image_digest", state.image_digest},
          {"lock_sha256", state.lock_sha256},
          {"batches", state.batches},
          {"status", state.status},
          {"next_batch", state.next_batch() + 1},
          {"nodes", nodes}};
}

template <>
Result<RolloutState> from_json<RolloutState>(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the rollout state");
  read_schema(r, k_rollout_state_schema);
  RolloutState state;
  state.image = r.str("image");
  state.image_digest = r.str("image_digest");
  state.lock_sha256 = r.str("lock_sha256");
  if (const json* batches = r.array("batches"); batches != nullptr) {
    for (std::size_t i = 0; i < batches->size(); ++i) {
      const json& batch = (*batches)[i];
      const std::string at = "batches[" + std::to_string(i) + "]";
      if (!batch.is_array() ||
          !std::all_of(batch.begin(), batch.end(), [](const json& n) { return n.is_string(); })) {
        r.fail(at, "must be an array of node names");
        break;
      }
      state.batches.push_back(batch.get<std::vector<std::string>>());
    }
  }
  state.status = read_choice(r, "status", {"running", "stopped", "done"});
  const std::uint64_t next = r.uinteger("next_batch");
  if (const json* nodes = r.object("nodes"); nodes != nullptr) {
    for (const auto& [node, item] : nodes->items()) {
      FieldReader n = r.member("nodes", node, item);
      RolloutNode record;
      record.status = read_choice(n, "status", {"passed", "failed"});
      record.image_digest = n.str("image_digest");
      record.batch = n.uinteger("batch");
      record.results = n.str("results");
      r.merge(n);
      state.nodes[node] = std::move(record);
    }
  }
  if (!r.error() && next != state.next_batch() + 1) {
    r.fail("next_batch",
           std::to_string(next) + ", but the nodes give " + std::to_string(state.next_batch() + 1));
  }
  ENVLOCK_TRY(r.status());
  return state;
}

Result<RolloutState> read_rollout_state(const std::filesystem::path& path) {
  return read_record<RolloutState>(path);
}

Status write_rollout_state(const std::filesystem::path& path, const RolloutState& state) {
  return util::write_json_file(path, to_json(state));
}

} // namespace envlock::formats
