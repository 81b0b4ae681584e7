// A node's verdict as a standard attestation: an in-toto Statement v1 whose predicate is the Test
// Result predicate (https://in-toto.io/attestation/test-result/v0.1), made from an envlock
// verification report (envlock.report/v1):
//   subject        the image (its manifest digest) and, when the node ran one, the .sqsh (sha256)
//   result         FAILED when a check failed, WARNED when one was skipped, else PASSED
//   configuration  the lock, by its sha256 (what the node was checked against)
//   passedTests, warnedTests (the skipped checks), failedTests: the check ids
// Signed like the provenance (signing.hpp); `envlock chain verify` takes it as a node's record.
#pragma once

#include "formats/report.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace envlock::provenance {

inline constexpr const char* k_test_result_predicate_type =
    "https://in-toto.io/attestation/test-result/v0.1";
// The configuration entry's name: what the digest is of.
inline constexpr const char* k_test_result_lock_name = "envlock.lock.json";

// The statement for `report`; an input error naming `origin` when it records no lock sha256 or
// image digest (nothing to tie the verdict to).
Result<nlohmann::json> test_result_statement(const formats::Report& report,
                                             const std::string& origin);

} // namespace envlock::provenance
