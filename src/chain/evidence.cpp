#include "chain/evidence.hpp"

#include "provenance/test_result.hpp"

#include "util/strings.hpp"

#include <map>

namespace envlock::chain {

namespace {

void refuse(LinkCheck& check, const std::string& why) {
  if (check.refused.empty()) {
    check.refused = why;
  }
}

// Whether a record takes part in the rules across records: a node record whose links hold (a
// verdict of another image is no replay here), signed, or unsigned and accepted (an unsigned
// report that does not count cannot take a signed verdict's place, nor refuse it).
bool compared(const LinkCheck& check, UnsignedReports unsigned_reports) {
  return check.node && check.broken.empty() &&
         (check.who.signed_by_node || unsigned_reports == UnsignedReports::accepted);
}

// Each node named by more than one record: every one of them refused, naming the others. Host
// names and GPU UUIDs are compared without case, as DNS and NVML treat them.
void refuse_shared_nodes(std::vector<LinkCheck>& checks, UnsignedReports unsigned_reports) {
  std::map<std::string, std::vector<LinkCheck*>> by_node;
  for (LinkCheck& check : checks) {
    if (compared(check, unsigned_reports) && !check.who.node.empty()) {
      by_node[util::to_lower(check.who.node)].push_back(&check);
    }
  }
  for (auto& [node, records] : by_node) {
    if (records.size() < 2) {
      continue;
    }
    for (LinkCheck* check : records) {
      std::string others;
      bool copy = false;
      for (const LinkCheck* other : records) {
        if (other != check) {
          others += (others.empty() ? "" : ", ") + other->record;
          copy = copy || (!check->who.payload_sha256.empty() &&
                          other->who.payload_sha256 == check->who.payload_sha256);
        }
      }
      refuse(*check,
             std::string(copy ? "a copy of the verdict in " : "node " + node + " also has ") +
                 others + ": one record per node, none counted");
    }
  }
}

// Each GPU named by records of different nodes: those records refused.
void refuse_shared_gpus(std::vector<LinkCheck>& checks, UnsignedReports unsigned_reports) {
  struct Holders {
    std::string gpu; // as the first record spells it
    std::vector<LinkCheck*> records;
  };
  std::map<std::string, Holders> by_gpu;
  for (LinkCheck& check : checks) {
    if (!compared(check, unsigned_reports)) {
      continue;
    }
    for (const std::string& gpu : check.who.gpus) {
      Holders& holders = by_gpu[util::to_lower(gpu)];
      if (holders.records.empty()) {
        holders.gpu = gpu;
      }
      if (holders.records.empty() || holders.records.back() != &check) {
        holders.records.push_back(&check);
      }
    }
  }
  for (auto& [key, holders] : by_gpu) {
    for (LinkCheck* check : holders.records) {
      for (const LinkCheck* other : holders.records) {
        if (other != check && util::to_lower(other->who.node) != util::to_lower(check->who.node)) {
          refuse(*check, "GPU " + holders.gpu + " is also in " + other->record + " (node " +
                             other->who.node + "): a GPU is in one node");
          break;
        }
      }
    }
  }
}

void refuse_on_its_own(LinkCheck& check, const SignedLinks& s) {
  const NodeIdentity& who = check.who;
  if (who.mode == "offline") {
    refuse(check, "ran offline (--root " + who.root +
                      "): it checked an unpacked image, not the node and its GPUs");
  } else if (who.mode != "gpus") {
    refuse(check, "ran on no GPU: not a check of the node's GPUs");
  }
  if (s.built_at.empty()) {
    refuse(check, s.origin + " records no build time (runDetails.metadata.finishedOn): "
                             "nothing shows the check came after the build");
  } else if (!provenance::is_rfc3339_utc(who.checked_at)) {
    refuse(check, "records no time it was checked");
  } else if (who.checked_at < s.built_at) {
    refuse(check, "checked at " + who.checked_at + ", before " + s.origin + "'s build finished (" +
                      s.built_at + "): a verdict of an earlier run");
  }
}

} // namespace

void judge_evidence(std::vector<LinkCheck>& checks, const SignedLinks& signed_links,
                    UnsignedReports unsigned_reports) {
  for (LinkCheck& check : checks) {
    if (check.node) {
      refuse_on_its_own(check, signed_links);
    }
  }
  refuse_shared_nodes(checks, unsigned_reports);
  refuse_shared_gpus(checks, unsigned_reports);
  for (LinkCheck& check : checks) {
    if (!check.node) {
      continue;
    }
    if (!check.who.signed_by_node && unsigned_reports == UnsignedReports::not_counted) {
      check.not_counted = "an unsigned report is no evidence of the node (anyone can write one); "
                          "--accept-unsigned counts it";
    }
  }
}

} // namespace envlock::chain
