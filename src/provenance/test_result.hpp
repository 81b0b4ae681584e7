// A node's verdict as a standard attestation: an in-toto Statement v1 whose predicate is the Test
// Result predicate (https://in-toto.io/attestation/test-result/v0.1), made from an envlock
// verification report (envlock.report/v1):
//   subject        the image (its manifest digest) and, when the node ran one, the .sqsh (sha256)
//   result         FAILED when a check failed, WARNED when one was skipped, else PASSED
//   configuration  the lock, by its sha256 (what the node was checked against)
//   passedTests, warnedTests (the skipped checks), failedTests: the check ids
//   envlock        the run: the node (its host name), its GPUs (UUIDs), the mode (gpus, live
//                  without a GPU, offline under --root), when it was checked and signed
// Signed with the node's own key (`envlock keygen --node`), never the provenance key; `envlock
// chain verify` takes it as a node's record (docs/formats/attestation.md).
#pragma once

#include "formats/report.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::provenance {

inline constexpr const char* k_test_result_predicate_type =
    "https://in-toto.io/attestation/test-result/v0.1";
// The configuration entry's name: what the digest is of.
inline constexpr const char* k_test_result_lock_name = "envlock.lock.json";

// How the node ran its checks: on its GPUs, live without a GPU, or offline (--root DIR, an
// unpacked image: nothing of the node was checked).
enum class VerdictMode { gpus, live, offline };

// "gpus", "live", "offline"
const char* to_string(VerdictMode mode);

// predicate.envlock: who ran the checks, on what, and when.
struct VerdictRun {
  std::string node;              // the node's host name (the report's run.hostname)
  std::vector<std::string> gpus; // the GPUs checked (the report's gpu_uuids)
  VerdictMode mode = VerdictMode::offline;
  std::string root;       // --root, offline only
  std::string checked_at; // the run's start (run.started_at), RFC 3339 UTC
  std::string signed_at;  // when the verdict was signed, RFC 3339 UTC
  bool operator==(const VerdictRun&) const = default;
};

// The run of `report`: its host name, GPUs, mode and start; signed at `signed_at`. An input
// error naming `origin` when it records no host name or start time.
Result<VerdictRun> verdict_run(const formats::Report& report, const std::string& origin,
                               const std::string& signed_at);

nlohmann::json to_json(const VerdictRun& run);

// Reads predicate.envlock (every key, none unknown): node (a host name), gpus, mode, root,
// checkedAt and signedAt (YYYY-MM-DDTHH:MM:SSZ). An input error names `origin` and the field.
Result<VerdictRun> read_verdict_run(const nlohmann::json& predicate, const std::string& origin);

// Whether `text` is a time as envlock writes it: "YYYY-MM-DDTHH:MM:SSZ" (such times order as
// strings).
bool is_rfc3339_utc(std::string_view text);

// Whether `name` can be a node's name: 1 to 253 of [A-Za-z0-9.-_], not starting with '.' or '-'.
bool is_node_name(std::string_view name);

// The statement for `report` and its run; an input error naming `origin` when it records no lock
// sha256 or image digest (nothing to tie the verdict to).
Result<nlohmann::json> test_result_statement(const formats::Report& report, const VerdictRun& run,
                                             const std::string& origin);

} // namespace envlock::provenance
