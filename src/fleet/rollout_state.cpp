#include "fleet/rollout_state.hpp"

#include "fleet/hostlist.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

#include <algorithm>

namespace envlock::fleet {

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

Result<std::vector<std::size_t>> parse_batch_sizes(const std::string& text) {
  std::vector<std::size_t> sizes;
  for (const auto& part : util::split(text, ',')) {
    const std::string field{util::trim(part)};
    if (field.empty() || field.size() > 6 ||
        !std::all_of(field.begin(), field.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoul(field) == 0) {
      return input_error("--batches: expected positive numbers separated by commas, e.g. "
                         "1,8,64: '" +
                         text + "'");
    }
    sizes.push_back(std::stoul(field));
  }
  return sizes;
}

std::vector<std::vector<std::string>> plan_batches(std::vector<std::string> nodes,
                                                   const std::string& reference,
                                                   const std::vector<std::size_t>& sizes) {
  sort_nodes(nodes);
  const auto ref = std::find(nodes.begin(), nodes.end(), reference);
  if (ref != nodes.end()) {
    std::rotate(nodes.begin(), ref, ref + 1);
  }
  std::vector<std::vector<std::string>> batches;
  std::size_t next = 0;
  for (std::size_t i = 0; next < nodes.size() && !sizes.empty(); ++i) {
    const std::size_t size = std::min(sizes[std::min(i, sizes.size() - 1)], nodes.size() - next);
    batches.emplace_back(nodes.begin() + static_cast<std::ptrdiff_t>(next),
                         nodes.begin() + static_cast<std::ptrdiff_t>(next + size));
    next += size;
  }
  return batches;
}

nlohmann::json rollout_state_to_json(const RolloutState& state) {
  nlohmann::json nodes = nlohmann::json::object();
  for (const auto& [node, record] : state.nodes) {
    nodes[node] = {{"status", record.status},
                   {"image_digest", record.image_digest},
                   {"batch", record.batch},
                   {"results", record.results}};
  }
  return {{"schema", k_rollout_schema},
          {"image", state.image},
          {"image_digest", state.image_digest},
          {"lock_sha256", state.lock_sha256},
          {"batches", state.batches},
          {"status", state.status},
          {"next_batch", state.next_batch() + 1},
          {"nodes", nodes}};
}

Result<RolloutState> read_rollout_state(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const auto json, util::read_json_file(path));
  const auto bad = input_error(path.string() + ": not an " + k_rollout_schema);
  if (!json.is_object() || json.value("schema", "") != k_rollout_schema) {
    return bad;
  }
  try {
    RolloutState state;
    state.image = json.at("image");
    state.image_digest = json.at("image_digest");
    state.lock_sha256 = json.at("lock_sha256");
    state.batches = json.at("batches").get<std::vector<std::vector<std::string>>>();
    state.status = json.at("status");
    for (const auto& [node, record] : json.at("nodes").items()) {
      state.nodes[node] = {record.at("status"), record.at("image_digest"),
                           record.at("batch").get<std::size_t>(), record.at("results")};
    }
    return state;
  } catch (const nlohmann::json::exception&) {
    return bad;
  }
}

Status write_rollout_state(const std::filesystem::path& path, const RolloutState& state) {
  return util::write_json_file(path, rollout_state_to_json(state));
}

} // namespace envlock::fleet
