// A roll-out's state (envlock.rollout-state/v1, docs/formats/rollout-state.md): the batches, how
// far the roll-out got, and the image digest each node last passed with. `envlock fleet rollout`
// writes it atomically after every batch and reads it back, so an interrupted roll-out resumes
// at the first batch not passed.
#pragma once

#include "formats/record.hpp"

#include <cstddef>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::formats {

inline constexpr const char* k_rollout_state_schema = "envlock.rollout-state/v1";
inline constexpr const char* k_rollout_state_file = "rollout-state.json";

struct RolloutNode {
  std::string status;       // "passed" or "failed"
  std::string image_digest; // the image it was verified with
  std::size_t batch = 0;    // 1-based batch number
  std::string results;      // the batch's results folder
  bool operator==(const RolloutNode&) const = default;
};

struct RolloutState {
  std::string image;
  std::string image_digest;
  std::string lock_sha256;
  std::vector<std::vector<std::string>> batches;
  std::string status = "running"; // "running", "stopped" (a batch failed) or "done"
  std::map<std::string, RolloutNode> nodes;

  // Index of the first batch whose nodes have not all passed with image_digest; batches.size()
  // when every batch has.
  [[nodiscard]] std::size_t next_batch() const;
  bool operator==(const RolloutState&) const = default;
};

// The state as JSON; next_batch is next_batch() + 1 (1-based).
nlohmann::json to_json(const RolloutState& state);

// Reads a state; next_batch must agree with the nodes. An input error names `origin` and the
// field.
template <>
Result<RolloutState> from_json<RolloutState>(const nlohmann::json& value,
                                             const std::string& origin);

Result<RolloutState> read_rollout_state(const std::filesystem::path& path);

// Writes the state as canonical JSON, atomically.
Status write_rollout_state(const std::filesystem::path& path, const RolloutState& state);

} // namespace envlock::formats
