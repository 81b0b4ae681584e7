#include "verify/gpu/sdc_node.hpp"

#include "formats/sdc.hpp"
#include "util/digest_vote.hpp"

#include <map>

namespace envlock::verify {

namespace {

struct Member {
  int index = 0;
  formats::SdcDigests digests;
};

std::string gpu_name(const Member& member) {
  return "GPU " + std::to_string(member.index) + " (" + member.digests.uuid + ")";
}

} // namespace

CheckResult compare_node_sdc(const std::vector<CheckResult>& checks) {
  CheckResult check;
  check.id = "sdc.node";
  check.group = "sdc";
  check.title = "SDC digests within the node";
  check.expected = "every GPU of one model gives the same digests";
  std::map<std::string, std::vector<Member>> groups;
  std::vector<std::string> left_out;
  for (const auto& gpu : checks) {
    auto digests = formats::read_sdc_digests(gpu, "the run");
    if (!digests || !*digests) {
      continue;
    }
    Member member{formats::sdc_gpu_index(gpu.id), std::move(**digests)};
    if (!member.digests.repeated) {
      left_out.push_back(gpu_name(member) + ": its chain did not repeat on itself");
      continue;
    }
    groups[formats::sdc_group_key(member.digests)].push_back(std::move(member));
  }
  nlohmann::json findings = nlohmann::json::array();
  nlohmann::json group_rows = nlohmann::json::array();
  std::vector<std::string> problems;
  std::size_t compared = 0;
  for (const auto& [key, members] : groups) {
    std::vector<util::DigestSteps> steps;
    for (const auto& member : members) {
      steps.push_back(member.digests.digests);
    }
    const util::DigestVote vote = util::vote_digests(steps);
    nlohmann::json row = {{"group", key}, {"gpus", members.size()}};
    if (vote.too_small) {
      row["verdict"] = "too_small";
      group_rows.push_back(row);
      continue;
    }
    ++compared;
    for (const auto& dissent : vote.dissent) {
      const Member& member = members[dissent.member];
      findings.push_back({{"finding", "sdc.gpu.minority"},
                          {"gpu", member.index},
                          {"uuid", member.digests.uuid},
                          {"serial", member.digests.serial},
                          {"step", dissent.step},
                          {"found", dissent.found},
                          {"majority", dissent.majority},
                          {"majority_gpus", dissent.majority_count},
                          {"compared_gpus", dissent.voters},
                          {"action", "isolate the GPU, return it for repair"}});
      problems.push_back("sdc.gpu.minority: " + gpu_name(member) + " differs from " +
                         std::to_string(dissent.majority_count) + " of " +
                         std::to_string(dissent.voters) + " GPUs at step " +
                         std::to_string(dissent.step) + "; isolate the GPU, return it for repair");
    }
    if (vote.tie) {
      nlohmann::json sides = nlohmann::json::array();
      std::string text;
      for (const auto& [digest, count] : vote.tie->sides) {
        sides.push_back({{"sha256", digest}, {"gpus", count}});
        text += (text.empty() ? "" : " against ") + std::to_string(count);
      }
      row["tie"] = {{"step", vote.tie->step}, {"sides", sides}};
      problems.push_back("sdc.gpu.tie: " + key + ": the GPUs split " + text + " at step " +
                         std::to_string(vote.tie->step) + "; no majority, no GPU named");
    }
    row["verdict"] = vote.tie ? "tie" : vote.dissent.empty() ? "agree" : "minority";
    group_rows.push_back(row);
  }
  check.details["groups"] = group_rows;
  check.details["findings"] = findings;
  if (!left_out.empty()) {
    check.details["left_out"] = left_out;
  }
  if (!problems.empty()) {
    check.outcome = Outcome::fail;
    check.found = findings.empty() ? std::string("a tie")
                                   : std::to_string(findings.size()) + " GPU(s) in a minority";
    for (const auto& problem : problems) {
      check.reason += (check.reason.empty() ? "" : "; ") + problem;
    }
    return check;
  }
  if (compared == 0) {
    check.outcome = Outcome::skip;
    check.reason = groups.empty() ? "no GPU's chain to compare"
                                  : "no group of two or more GPUs within the node: the fleet "
                                    "comparison compares them";
    return check;
  }
  check.outcome = Outcome::pass;
  check.found = "the same digests";
  if (!left_out.empty()) {
    check.reason = "warning: left out: " + left_out.front();
  }
  return check;
}

} // namespace envlock::verify
