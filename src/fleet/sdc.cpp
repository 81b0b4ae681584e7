#include "fleet/sdc.hpp"

#include "formats/sdc.hpp"
#include "util/digest_vote.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace envlock::fleet {

namespace {

struct Member {
  std::string node;
  int gpu = 0;
  formats::SdcDigests digests;
};

std::string gpu_text(const std::string& node, std::int64_t gpu) {
  return node + " GPU " + std::to_string(gpu);
}

} // namespace

SdcComparison compare_fleet_sdc(const std::vector<NodeInput>& nodes) {
  SdcComparison out;
  std::map<std::string, std::vector<Member>> groups;
  std::map<std::string, std::vector<std::string>> left_out;
  for (const auto& node : nodes) {
    if (!node.reported) {
      continue;
    }
    for (const auto& check : node.report.checks) {
      auto digests = formats::read_sdc_digests(check, node.node);
      if (!digests) {
        out.failures.push_back({node.node, check.id, "readable SDC digests", "unreadable",
                                digests.error().message, ""});
        continue;
      }
      if (!*digests) {
        continue;
      }
      Member member{node.node, formats::sdc_gpu_index(check.id), std::move(**digests)};
      const std::string key = formats::sdc_group_key(member.digests);
      if (!member.digests.repeated) {
        left_out[key].push_back(gpu_text(member.node, member.gpu) +
                                ": its chain did not repeat on itself");
        continue;
      }
      groups[key].push_back(std::move(member));
    }
  }
  for (const auto& [key, skipped] : left_out) {
    groups.try_emplace(key);
  }
  for (const auto& [key, members] : groups) {
    formats::SdcGroup group;
    group.group = key;
    group.gpus = members.size();
    std::set<std::string> on;
    std::vector<util::DigestSteps> steps;
    for (const auto& member : members) {
      on.insert(member.node);
      steps.push_back(member.digests.digests);
    }
    group.nodes = on.size();
    if (const auto found = left_out.find(key); found != left_out.end()) {
      group.left_out = found->second;
    }
    const util::DigestVote vote = util::vote_digests(steps);
    for (const auto& dissent : vote.dissent) {
      const Member& member = members[dissent.member];
      out.sdc.minority.push_back({member.node, member.gpu, member.digests.uuid,
                                  member.digests.serial, key, dissent.step, dissent.found,
                                  dissent.majority, dissent.majority_count, dissent.voters});
      const std::string action = "isolate the GPU, return it for repair";
      out.failures.push_back(
          {member.node, "sdc.gpu.minority", dissent.majority, dissent.found,
           "GPU " + std::to_string(member.gpu) + " (" + member.digests.uuid + ") differs from " +
               std::to_string(dissent.majority_count) + " of " + std::to_string(dissent.voters) +
               " GPUs of its group at step " + std::to_string(dissent.step) + ": " + action,
           "sdc.gpu.minority GPU " + std::to_string(member.gpu) + ": " + action});
    }
    if (vote.too_small) {
      group.verdict = "too_small";
    } else if (vote.tie) {
      group.verdict = "tie";
      group.tie_step = vote.tie->step;
      group.tie_sides = vote.tie->sides;
    } else {
      group.verdict = vote.dissent.empty() ? "agree" : "minority";
    }
    out.sdc.groups.push_back(std::move(group));
  }
  return out;
}

} // namespace envlock::fleet
