// A roll-out's plan: the batches its nodes are verified in. The state it keeps between runs is
// formats/rollout_state.hpp.
#pragma once

#include "formats/rollout_state.hpp"
#include "util/result.hpp"

#include <string>
#include <vector>

namespace envlock::fleet {

using formats::RolloutState;

// "1,8,64" into sizes; an input error for anything but positive integers.
Result<std::vector<std::size_t>> parse_batch_sizes(const std::string& text);

// The batches: the nodes in order
// (reference first, then natural order) cut into the given sizes; the last size repeats until
// every node has a batch.
std::vector<std::vector<std::string>> plan_batches(std::vector<std::string> nodes,
                                                   const std::string& reference,
                                                   const std::vector<std::size_t>& sizes);

} // namespace envlock::fleet
