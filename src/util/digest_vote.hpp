// A majority vote over sequences of digests: members that ran the same deterministic computation
// and digested its state at numbered steps (not every member reaches every step). At each step,
// in ascending order, the members still in the vote that have a digest there are compared: when
// one digest holds a strict majority, every member with another is a dissenter (named with the
// step, and out of the vote from then on); when none does, the vote is a tie at that step and
// ends there (nobody is named: a tie is said, never guessed). A vote of fewer than two members
// compares nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace envlock::util {

// One member's digests by step, steps ascending.
using DigestSteps = std::vector<std::pair<std::uint64_t, std::string>>;

struct Dissent {
  std::size_t member = 0; // index into the members
  std::uint64_t step = 0; // the first step its digest left the majority's
  std::string found;      // its digest there
  std::string majority;   // the majority's
  std::size_t majority_count = 0;
  std::size_t voters = 0; // members with a digest at that step
};

struct DigestTie {
  std::uint64_t step = 0;
  // Each digest seen at the step with how many members gave it, most first, then by digest.
  std::vector<std::pair<std::string, std::size_t>> sides;
};

struct DigestVote {
  std::vector<Dissent> dissent; // by step, then member
  std::optional<DigestTie> tie;
  bool too_small = false;           // fewer than two members
  std::uint64_t steps_compared = 0; // steps at which two or more members voted
};

// Votes as described above. Pure.
DigestVote vote_digests(const std::vector<DigestSteps>& members);

} // namespace envlock::util
