// The link check without a GPU: the verdict on measured links (the lock's minimum, a link far
// below the others, failed copies, pairs without peer access), the figures and the words of the
// reasons, and the PCI addresses sysfs names its folders by.
#include "verify/gpu/link_verdict.hpp"
#include "verify/gpu/links.hpp"

#include <doctest/doctest.h>

namespace envlock::verify {

namespace {

LinkMeasure peer(int from, int to, double gbps, int rank = 0, bool direct = true) {
  LinkMeasure link;
  link.from = from;
  link.to = to;
  link.gbps = gbps;
  link.rank = rank;
  link.direct = direct;
  return link;
}

LinkMeasure host(int gpu, double gbps, bool on_local_cpus = true) {
  return peer(gpu, 0, gbps, 0, on_local_cpus);
}

lock::LinksExpect h200_minimums() {
  lock::LinksExpect expect;
  expect["NVIDIA H200"].peer_gbps = lock::DeclaredNumber{300, true};
  expect["NVIDIA H200"].host_to_device_gbps = lock::DeclaredNumber{40.5, false};
  return expect;
}

} // namespace

TEST_SUITE("verify_links") {
  TEST_CASE("the lock's minimum is looked up by model and kind") {
    const auto expect = h200_minimums();
    CHECK(link_minimum(expect, "NVIDIA H200", LinkKind::peer) == 300.0);
    CHECK(link_minimum(expect, "NVIDIA H200", LinkKind::host_to_device) == 40.5);
    CHECK_FALSE(link_minimum(expect, "NVIDIA H200", LinkKind::device_to_host).has_value());
    CHECK_FALSE(link_minimum(expect, "NVIDIA B200", LinkKind::peer).has_value());
  }

  TEST_CASE("links at their minimum and alike pass, with one figure each") {
    CheckResult check;
    judge_links(LinkKind::peer, {peer(0, 1, 381.2), peer(1, 0, 379.9)}, 300.0, "NVIDIA H200",
                check);
    CHECK(check.outcome == Outcome::pass);
    CHECK(check.expected == ">= 300.0 GB/s each way");
    CHECK(check.found == "slowest 379.9 GB/s (GPU 1 -> GPU 0)");
    CHECK(check.reason.empty());
    REQUIRE(check.figures.size() == 2);
    CHECK(check.figures[0].name == "peer_0_1");
    CHECK(check.figures[0].value == 381.2);
    CHECK(check.figures[0].unit == "GB/s");
    CHECK(check.figures[1].name == "peer_1_0");
    CHECK(check.details["links"][1]["to"] == 0);
    CHECK(check.details["links"][1]["peer_access"] == true);
  }

  TEST_CASE("a link below the lock's minimum fails, named") {
    CheckResult check;
    judge_links(LinkKind::host_to_device, {host(0, 39.0)}, 40.5, "NVIDIA H200", check);
    CHECK(check.outcome == Outcome::fail);
    CHECK(check.expected == ">= 40.5 GB/s");
    CHECK(check.found == "39.0 GB/s (GPU 0)");
    CHECK(check.reason == "below the lock's minimum 40.5 GB/s for NVIDIA H200: GPU 0 39.0 GB/s");
    CHECK(check.figures.at(0).name == "host_to_device_0");
  }

  TEST_CASE("a pair far below the others is named even without a minimum") {
    std::vector<LinkMeasure> links;
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        if (a != b) {
          links.push_back(peer(a, b, a == 2 && b == 3 ? 190.0 : 380.0 + a + b));
        }
      }
    }
    const auto far = far_below_others(LinkKind::peer, links);
    REQUIRE(far.size() == 1);
    CHECK(links[far[0].index].from == 2);
    CHECK(links[far[0].index].to == 3);
    CheckResult check;
    judge_links(LinkKind::peer, links, std::nullopt, "NVIDIA H200", check);
    CHECK(check.outcome == Outcome::fail);
    CHECK(check.expected.empty());
    CHECK(check.found == "slowest 190.0 GB/s (GPU 2 -> GPU 3)");
    CHECK(check.reason == "far below the others: GPU 2 -> GPU 3 190.0 GB/s (the others' median "
                          "383.0 GB/s)");
    CHECK(check.figures.size() == 12);
    // Three quarters of the others' median is the line.
    links[far[0].index].gbps = 0.76 * 383.0;
    CHECK(far_below_others(LinkKind::peer, links).empty());
  }

  TEST_CASE("two GPUs: each direction is compared with the other") {
    CheckResult check;
    judge_links(LinkKind::peer, {peer(0, 1, 380.0), peer(1, 0, 120.0)}, std::nullopt, "NVIDIA H200",
                check);
    CHECK(check.outcome == Outcome::fail);
    CHECK(check.reason ==
          "far below the others: GPU 1 -> GPU 0 120.0 GB/s (the others' median 380.0 GB/s)");
  }

  TEST_CASE("pairs are compared only within the driver's performance rank and access") {
    // An NVLink pair and pairs through PCIe (another rank) on one node: no pair is far below its
    // own kind.
    const std::vector<LinkMeasure> links = {peer(0, 1, 380.0, 0),       peer(1, 0, 381.0, 0),
                                            peer(0, 2, 25.0, 1),        peer(2, 0, 24.0, 1),
                                            peer(1, 2, 12.0, 1, false), peer(2, 1, 11.0, 1, false)};
    CHECK(far_below_others(LinkKind::peer, links).empty());
    CheckResult check;
    judge_links(LinkKind::peer, links, std::nullopt, "NVIDIA L40S", check);
    CHECK(check.outcome == Outcome::pass);
    CHECK(check.found == "slowest 11.0 GB/s (GPU 2 -> GPU 1); 2 without peer access");
    CHECK(check.details["without_peer_access"] == 2);
    // The lock's minimum judges every pair, with or without peer access.
    lock::LinksExpect expect;
    expect["NVIDIA L40S"].peer_gbps = lock::DeclaredNumber{20, true};
    CheckResult judged;
    judge_links(LinkKind::peer, links, link_minimum(expect, "NVIDIA L40S", LinkKind::peer),
                "NVIDIA L40S", judged);
    CHECK(judged.outcome == Outcome::fail);
    CHECK(judged.reason == "below the lock's minimum 20.0 GB/s for NVIDIA L40S: GPU 1 -> GPU 2 "
                           "12.0 GB/s, GPU 2 -> GPU 1 11.0 GB/s");
  }

  TEST_CASE("host links are compared only when copied from the GPU's own CPUs") {
    const std::vector<LinkMeasure> placed = {host(0, 55.0), host(1, 54.0), host(2, 26.0),
                                             host(3, 55.5)};
    CheckResult check;
    judge_links(LinkKind::device_to_host, placed, std::nullopt, "NVIDIA H200", check);
    CHECK(check.outcome == Outcome::fail);
    CHECK(check.reason == "far below the others: GPU 2 26.0 GB/s (the others' median 55.0 GB/s)");
    CHECK(check.figures.at(2).name == "device_to_host_2");
    // Not placed (no sysfs): the memory node may be the far one; not compared.
    const std::vector<LinkMeasure> unplaced = {host(0, 55.0, false), host(1, 26.0, false)};
    CheckResult loose;
    judge_links(LinkKind::device_to_host, unplaced, std::nullopt, "NVIDIA H200", loose);
    CHECK(loose.outcome == Outcome::pass);
    CHECK(loose.details["links"][1]["on_local_cpus"] == false);
  }

  TEST_CASE("a failed copy fails the check, named, and is never a figure") {
    std::vector<LinkMeasure> links = {peer(0, 1, 380.0), peer(1, 0, 0)};
    links[1].error = "the copy arrived wrong: 0x00000000 ... 0x00000000, expected 0x3f800001";
    for (int i = 2; i < 7; ++i) {
      links.push_back(peer(i, 0, 0));
      links.back().error = "cuMemcpyPeerAsync: invalid argument (CUDA_ERROR_INVALID_VALUE)";
    }
    CheckResult check;
    judge_links(LinkKind::peer, links, 300.0, "NVIDIA H200", check);
    CHECK(check.outcome == Outcome::fail);
    CHECK(check.reason ==
          "GPU 1 -> GPU 0: the copy arrived wrong: 0x00000000 ... 0x00000000, expected "
          "0x3f800001, GPU 2 -> GPU 0: cuMemcpyPeerAsync: invalid argument "
          "(CUDA_ERROR_INVALID_VALUE), GPU 3 -> GPU 0: cuMemcpyPeerAsync: invalid argument "
          "(CUDA_ERROR_INVALID_VALUE), GPU 4 -> GPU 0: cuMemcpyPeerAsync: invalid argument "
          "(CUDA_ERROR_INVALID_VALUE) and 2 more");
    CHECK(check.figures.size() == 1);
    CHECK(check.found == "380.0 GB/s (GPU 0 -> GPU 1)");
    CHECK(check.details["links"][1]["error"] ==
          "the copy arrived wrong: 0x00000000 ... 0x00000000, expected 0x3f800001");
    CHECK_FALSE(check.details["links"][1].contains("gbps"));
  }

  TEST_CASE("the driver's PCI address becomes sysfs's folder name") {
    CHECK(sysfs_pci_address("00000000:1B:00.0") == "0000:1b:00.0");
    CHECK(sysfs_pci_address("0000:C1:1F.7") == "0000:c1:1f.7");
    CHECK(sysfs_pci_address("0001:01:00.1") == "0001:01:00.1");
    CHECK(sysfs_pci_address("0000:1B:00.0x").empty());
    CHECK(sysfs_pci_address("1B:00.0").empty());
    CHECK(sysfs_pci_address("").empty());
  }
}

} // namespace envlock::verify
