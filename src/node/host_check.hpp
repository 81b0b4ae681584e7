// Comparing host facts with the lock's `expect.host` (the supported combination of OS, kernel,
// driver, Fabric Manager, ...), as `envlock node --check` and the verifier's host check do.
#pragma once

#include "lock/lock.hpp"
#include "verify/check.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace envlock::node {

// One CheckResult per key of `expect_host` (sorted), with id "host.KEY": pass when the fact meets
// the expectation (expectation.hpp); fail when it does not ("found X, expected Y"), when the fact
// is missing ("missing: WHY"), when the key is not a known fact ("unknown host fact 'K'; did you
// mean 'L'?") or the expectation is malformed. `facts` is collect_host_facts()'s object.
std::vector<verify::CheckResult> check_host(const nlohmann::json& facts,
                                            const lock::HostExpect& expect_host);

} // namespace envlock::node
