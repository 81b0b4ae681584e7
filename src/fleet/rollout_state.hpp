// A roll-out's state ("envlock.rollout-state/v1", docs/formats/rollout-state.md): the batches,
// how far the roll-out got, and the image digest each node last passed with. Written atomically
// after every batch, so an interrupted roll-out resumes at the first batch not passed.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::fleet {

inline constexpr const char* k_rollout_schema = "envlock.rollout-state/v1";

struct NodeRecord {
  std::string status;       // "passed" or "failed"
  std::string image_digest; // the image it was verified with
  std::size_t batch = 0;    // 1-based batch number
  std::string results;      // the batch's results folder
};

struct RolloutState {
  std::string image;
  std::string image_digest;
  std::string lock_sha256;
  std::vector<std::vector<std::string>> batches;
  std::string status = "running"; // "running", "stopped" (a batch failed) or "done"
  std::map<std::string, NodeRecord> nodes;

  // Index of the first batch whose nodes have not all passed with image_digest; batches.size()
  // when every batch has.
  [[nodiscard]] std::size_t next_batch() const;
};

// "1,8,64" into sizes; an input error for anything but positive integers.
Result<std::vector<std::size_t>> parse_batch_sizes(const std::string& text);

// The batches: the nodes in order
// (reference first, then natural order) cut into the given sizes; the last size repeats until
// every node has a batch.
std::vector<std::vector<std::string>> plan_batches(std::vector<std::string> nodes,
                                                   const std::string& reference,
                                                   const std::vector<std::size_t>& sizes);

nlohmann::json rollout_state_to_json(const RolloutState& state);

// Reads a state file; an input error naming the file when it is not a rollout state.
Result<RolloutState> read_rollout_state(const std::filesystem::path& path);

// Writes the state as canonical JSON, atomically.
Status write_rollout_state(const std::filesystem::path& path, const RolloutState& state);

} // namespace envlock::fleet
