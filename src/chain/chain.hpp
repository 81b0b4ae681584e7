// The chain from a node back to the manifest: the signed provenance names the lock (its sha256),
// the image (its digest) and, when the .sqsh was recorded, the .sqsh (its sha256); a
// squashfs-result.json names the image it squashed and the .sqsh it wrote; each verification
// report names the lock, image and .sqsh the node ran. `envlock chain verify` checks every link
// and names the first broken one of each record (docs/manual/chain.md).
#pragma once

#include "chain/node_keys.hpp"
#include "formats/report.hpp"
#include "formats/squashfs_result.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::chain {

// What a verified provenance envelope signs.
struct SignedLinks {
  std::string origin;                     // the envelope's file name, for messages
  std::string keyid;                      // the signer
  std::string lock_sha256;                // externalParameters.lockFile.digest.sha256
  std::string image_name;                 // subject[0].name
  std::string image_digest;               // "sha256:" + subject[0].digest.sha256
  std::optional<std::string> sqsh_sha256; // the .sqsh subject, when there is one
  // When the build finished (runDetails.metadata.finishedOn, else startedOn); empty when the
  // statement records no time of the form YYYY-MM-DDTHH:MM:SSZ.
  std::string built_at;
};

// Verifies the envelope with the public key (as `envlock provenance verify` does) and reads its
// links. Fails (exit 1) when the signature does not hold; (exit 2) when the statement lacks the
// lock file or an image subject.
Result<SignedLinks> read_signed_links(const std::filesystem::path& envelope,
                                      const std::filesystem::path& public_key);

// The outcome of one record's links: empty `broken` when every link holds.
// For a verification report, `node` is set: the report's own verdict, which the links say nothing
// about.
struct NodeOutcome {
  std::string outcome; // the report's `outcome` ("pass", "fail"), empty when it has none
  std::string counts;  // "14 passed, 1 failed, 2 skipped", from `summary`; empty without one
  [[nodiscard]] bool passed() const { return outcome == "pass"; }
};

// "14 passed, 1 failed, 2 skipped"
std::string counts_text(const formats::Summary& summary);

// Who a node record says ran the checks, where and when: a verdict's predicate.envlock, or a
// report's run and gpu_uuids (which nothing vouches for).
struct NodeIdentity {
  std::string node; // the host name
  std::vector<std::string> gpus;
  std::string mode; // "gpus", "live" (no GPU), "offline" (--root)
  std::string root; // offline: the --root folder
  std::string checked_at;
  bool signed_by_node = false; // a verdict whose signature holds under its node's own key
  std::string payload_sha256;  // a verdict's signed payload, to tell copies
};

struct LinkCheck {
  std::string record;  // file name
  std::string broken;  // the first broken link, in words
  std::string summary; // the links that held, in words
  std::optional<NodeOutcome> node;
  NodeIdentity who;        // for a node record
  std::string refused;     // why the node record is no evidence of a passing node (evidence.hpp)
  std::string not_counted; // an unsigned report not accepted: why it does not count
  // Whether the record counts as a node that passed: links hold, outcome pass, not refused.
  [[nodiscard]] bool node_passed() const {
    return node && broken.empty() && refused.empty() && not_counted.empty() && node->passed();
  }
};

// A squashfs result against the signed links: the image it squashed and its .sqsh.
LinkCheck check_squashfs_result(const SignedLinks& signed_links,
                                const formats::SquashfsResult& result, const std::string& record);

// What a node's record names and how the node fared: read from a verification report, or from a
// signed verdict (verdict.hpp), which carries counts and no checks.
struct NodeRecord {
  std::string lock_sha256;
  std::optional<std::string> image_digest;
  std::optional<std::string> sqsh_sha256;
  // The report's "chain" details: why a link was not recorded ("image_digest_missing": ...).
  nlohmann::json chain = nlohmann::json::object();
  NodeOutcome outcome;
  NodeIdentity who;
};

// The links and the verdict of a verification report.
NodeRecord node_record(const formats::Report& report);

// A node's record against the signed links (and, when the provenance signs no .sqsh, the
// squashfs result's .sqsh sha256 in `sqsh_sha256`).
LinkCheck check_report(const SignedLinks& signed_links, const NodeRecord& node,
                       const std::string& record, const std::optional<std::string>& sqsh_sha256);

// The node record at `path` against the signed links: a verification report, or a signed verdict
// verified with its node's own key from `node_keys` (nullptr: none given, and a verdict is a
// broken link). A file that does not read as a report (formats::from_json<Report>) or a verdict
// whose signature does not hold under the key of the node it names is a broken link with the
// reader's words, named by file name. Fails (exit 2) when the file cannot be read or is not JSON.
Result<LinkCheck> check_report_file(const SignedLinks& signed_links,
                                    const std::filesystem::path& path,
                                    const std::optional<std::string>& sqsh_sha256,
                                    const NodeKeys* node_keys);

// One line for the check: "RECORD: ok: LINKS" for a squashfs result, "RECORD: links hold: LINKS;
// node passed|failed (COUNTS)" for a report, or the broken link (with the node's outcome); then
// "; refused: WHY" or "; not counted: WHY" when the node record is no evidence.
std::string render_check(const LinkCheck& check);

// Whether `doc` is a node's signed verdict: a DSSE envelope whose statement (not yet verified)
// has the Test Result predicate (chain/verdict.hpp).
bool is_verdict(const nlohmann::json& doc);

// The node records of a results folder: DIR/*.json and DIR/nodes/*.json whose schema is
// envlock.report/v1 or that are signed verdicts, sorted by path.
std::vector<std::filesystem::path> reports_in(const std::filesystem::path& dir);

} // namespace envlock::chain
