#include "util/digest_vote.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace envlock::util {

DigestVote vote_digests(const std::vector<DigestSteps>& members) {
  DigestVote vote;
  if (members.size() < 2) {
    vote.too_small = true;
    return vote;
  }
  std::set<std::uint64_t> steps;
  for (const auto& member : members) {
    for (const auto& [step, digest] : member) {
      steps.insert(step);
    }
  }
  std::vector<bool> active(members.size(), true);
  for (const std::uint64_t step : steps) {
    std::map<std::string, std::size_t> counts;
    std::vector<std::pair<std::size_t, const std::string*>> voters;
    for (std::size_t i = 0; i < members.size(); ++i) {
      if (!active[i]) {
        continue;
      }
      const auto found = std::find_if(members[i].begin(), members[i].end(),
                                      [&](const auto& entry) { return entry.first == step; });
      if (found != members[i].end()) {
        ++counts[found->second];
        voters.emplace_back(i, &found->second);
      }
    }
    if (voters.size() < 2) {
      continue;
    }
    ++vote.steps_compared;
    if (counts.size() == 1) {
      continue;
    }
    const auto top =
        std::max_element(counts.begin(), counts.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    if (top->second * 2 <= voters.size()) {
      DigestTie tie{step, {counts.begin(), counts.end()}};
      std::sort(tie.sides.begin(), tie.sides.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
      });
      vote.tie = std::move(tie);
      return vote;
    }
    for (const auto& [member, digest] : voters) {
      if (*digest != top->first) {
        vote.dissent.push_back({member, step, *digest, top->first, top->second, voters.size()});
        active[member] = false;
      }
    }
  }
  return vote;
}

} // namespace envlock::util
