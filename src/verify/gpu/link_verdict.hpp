// The GPU-free part of the link check: each measured copy (GPU to GPU, host to GPU, GPU to host)
// judged against the lock's minimum for the GPU model and against the other links of its kind,
// so that a link far below its siblings is named even where the lock sets no minimum.
#pragma once

#include "lock/links_expect.hpp"
#include "verify/check.hpp"

#include <optional>
#include <string>
#include <vector>

namespace envlock::verify {

// The three link checks: "links.peer", "links.host_to_device", "links.device_to_host".
enum class LinkKind { peer, host_to_device, device_to_host };

// A link below this fraction of the median of the other links it is compared with is "far below
// the others".
inline constexpr double k_link_far_below = 0.75;

// One measured direction.
struct LinkMeasure {
  int from = 0; // GPU index (peer, device_to_host); for host_to_device the GPU copied to
  int to = 0;   // GPU index (peer); unused for host links
  double gbps = 0;
  // Peer: the driver's relative performance rank of the pair (CU_DEVICE_P2P_ATTRIBUTE_
  // PERFORMANCE_RANK) and whether it allows direct access (cuDeviceCanAccessPeer); pairs are
  // compared only with pairs of the same rank and access. Host: whether the copying thread ran
  // on the GPU's own CPUs (its memory node); only such host links are compared.
  int rank = 0;
  bool direct = true;
  std::string error; // not empty: the copy failed, with this
};

// "GPU 0 -> GPU 1" (peer) or "GPU 0" (host links).
std::string link_name(LinkKind kind, const LinkMeasure& link);

// The minimum the lock sets for `kind` on `model`; nothing when it sets none.
std::optional<double> link_minimum(const lock::LinksExpect& expect, const std::string& model,
                                   LinkKind kind);

// The links far below the others: each compared with the median of the other links of its group,
// when the group has another. Peer links group by rank and access; host links are compared only
// when their thread ran on the GPU's own CPUs (else the memory node decides the speed). Returns
// their indices in `links`, in order, with that median.
struct FarBelow {
  std::size_t index = 0;
  double median_of_others = 0;
};
std::vector<FarBelow> far_below_others(LinkKind kind, const std::vector<LinkMeasure>& links);

// Fills outcome, expected, found, reason, figures and details of `check` from the measured links:
// fails for a copy that failed, a link below `minimum`, a link far below the others; passes
// otherwise. `model` names the GPU in the reason.
void judge_links(LinkKind kind, const std::vector<LinkMeasure>& links,
                 std::optional<double> minimum, const std::string& model, CheckResult& check);

} // namespace envlock::verify
