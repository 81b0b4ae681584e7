// Whether each node record of a chain is evidence of a node that passed: the rules across records
// and against the provenance that links alone do not check. A record is refused as a passing
// node when
//   - another record names the same node (a copy, or a replay beside a newer run): all of them;
//   - another record names one of its GPUs for another node (GPU UUIDs are unique): both;
//   - it ran offline (--root: an image was checked, not the node) or on no GPU;
//   - it was checked before the provenance's build finished, or the provenance records no time;
// and an unsigned report (nothing vouches for its bytes) does not count unless the caller accepts
// unsigned reports, which the output says (docs/manual/chain.md, docs/manual/trust.md).
#pragma once

#include "chain/chain.hpp"

#include <vector>

namespace envlock::chain {

// Whether unsigned verification reports count as nodes.
enum class UnsignedReports { not_counted, accepted };

// Sets `refused` or `not_counted` of each node record of `checks`: the first reason found, the
// record's own (mode, time) before those it shares with others (node, GPU).
void judge_evidence(std::vector<LinkCheck>& checks, const SignedLinks& signed_links,
                    UnsignedReports unsigned_reports);

} // namespace envlock::chain
