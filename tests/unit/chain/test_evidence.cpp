#include "chain/evidence.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE("chain") {

  chain::LinkCheck node_record(const std::string& record, const std::string& node,
                               std::vector<std::string> gpus, const std::string& payload) {
    chain::LinkCheck check;
    check.record = record;
    check.node = chain::NodeOutcome{"pass", "3 passed, 0 failed, 0 skipped"};
    check.who = {node, std::move(gpus), "gpus", "", "2026-12-01T10:00:00Z", true, payload};
    return check;
  }

  chain::SignedLinks provenance() {
    chain::SignedLinks s;
    s.origin = "p.dsse.json";
    s.built_at = "2026-12-01T09:00:00Z";
    return s;
  }

  TEST_CASE("distinct nodes of their own GPUs all count") {
    std::vector<chain::LinkCheck> checks = {node_record("a", "node1", {"GPU-1"}, "x"),
                                            node_record("b", "node2", {"GPU-2"}, "y")};
    chain::judge_evidence(checks, provenance(), chain::UnsignedReports::not_counted);
    CHECK(checks[0].node_passed());
    CHECK(checks[1].node_passed());
  }

  TEST_CASE("copies, a second record of a node, a shared GPU: every one refused") {
    std::vector<chain::LinkCheck> checks = {node_record("a", "node1", {"GPU-1"}, "x"),
                                            node_record("b", "node1", {"GPU-1"}, "x"),
                                            node_record("c", "node1", {"GPU-1"}, "z")};
    chain::judge_evidence(checks, provenance(), chain::UnsignedReports::not_counted);
    CHECK(checks[0].refused == "a copy of the verdict in b, c: one record per node, none counted");
    CHECK(checks[2].refused == "node node1 also has a, b: one record per node, none counted");

    std::vector<chain::LinkCheck> shared = {node_record("a", "node1", {"GPU-1", "GPU-2"}, "x"),
                                            node_record("b", "node2", {"GPU-2"}, "y"),
                                            node_record("c", "node3", {"GPU-3"}, "z")};
    chain::judge_evidence(shared, provenance(), chain::UnsignedReports::not_counted);
    CHECK(shared[0].refused == "GPU GPU-2 is also in b (node node2): a GPU is in one node");
    CHECK(shared[1].refused == "GPU GPU-2 is also in a (node node1): a GPU is in one node");
    CHECK(shared[2].node_passed());
  }

  TEST_CASE("offline, GPU-less, older than the build, no build time, unsigned") {
    std::vector<chain::LinkCheck> checks = {
        node_record("a", "node1", {}, "x"), node_record("b", "node2", {}, "y"),
        node_record("c", "node3", {"GPU-3"}, "z"), node_record("d", "node4", {"GPU-4"}, "w")};
    checks[0].who.mode = "offline";
    checks[0].who.root = "/img";
    checks[1].who.mode = "live";
    checks[2].who.checked_at = "2026-12-01T08:59:59Z";
    checks[3].who.signed_by_node = false;
    chain::judge_evidence(checks, provenance(), chain::UnsignedReports::not_counted);
    CHECK(checks[0].refused ==
          "ran offline (--root /img): it checked an unpacked image, not the node and its GPUs");
    CHECK(checks[1].refused == "ran on no GPU: not a check of the node's GPUs");
    CHECK(checks[2].refused == "checked at 2026-12-01T08:59:59Z, before p.dsse.json's build "
                               "finished (2026-12-01T09:00:00Z): a verdict of an earlier run");
    CHECK(checks[3].refused.empty());
    CHECK(checks[3].not_counted == "an unsigned report is no evidence of the node (anyone can "
                                   "write one); --accept-unsigned counts it");
    CHECK_FALSE(checks[3].node_passed());

    std::vector<chain::LinkCheck> accepted = {node_record("d", "node4", {"GPU-4"}, "")};
    accepted[0].who.signed_by_node = false;
    chain::judge_evidence(accepted, provenance(), chain::UnsignedReports::accepted);
    CHECK(accepted[0].node_passed());

    std::vector<chain::LinkCheck> timeless = {node_record("a", "node1", {"GPU-1"}, "x")};
    chain::SignedLinks no_time = provenance();
    no_time.built_at.clear();
    chain::judge_evidence(timeless, no_time, chain::UnsignedReports::not_counted);
    CHECK(timeless[0].refused ==
          "p.dsse.json records no build time (runDetails.metadata.finishedOn): nothing shows the "
          "check came after the build");
  }
  TEST_CASE("what takes part across records: links holding, signed or accepted; no case") {
    std::vector<chain::LinkCheck> checks = {node_record("a", "node1", {"GPU-AB"}, "x"),
                                            node_record("b", "NODE1", {"GPU-1"}, "y"),
                                            node_record("c", "node2", {"gpu-ab"}, "z")};
    chain::judge_evidence(checks, provenance(), chain::UnsignedReports::not_counted);
    CHECK(checks[0].refused == "node node1 also has b: one record per node, none counted");
    CHECK(checks[2].refused == "GPU GPU-AB is also in a (node node1): a GPU is in one node");

    // An unsigned report that does not count refuses no verdict; a record of another image
    // (its links broken) is no replay of this one.
    std::vector<chain::LinkCheck> quiet = {node_record("a", "node1", {"GPU-1"}, "x"),
                                           node_record("b", "node1", {"GPU-1"}, ""),
                                           node_record("c", "node1", {"GPU-1"}, "z")};
    quiet[1].who.signed_by_node = false;
    quiet[2].broken = "c: lock sha256 …: not the one p.dsse.json signs (…)";
    chain::judge_evidence(quiet, provenance(), chain::UnsignedReports::not_counted);
    CHECK(quiet[0].node_passed());
    CHECK(quiet[0].refused.empty());
    CHECK_FALSE(quiet[1].node_passed());
    chain::judge_evidence(quiet, provenance(), chain::UnsignedReports::accepted);
    CHECK(quiet[0].refused == "node node1 also has b: one record per node, none counted");
  }
}
