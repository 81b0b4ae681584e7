// Offline checks of a .sqsh: its superblock, sha256 and size against squashfs-result.json, its
// tree digest (optional, it reads the whole image), and its times and compression against the
// lock's Enroot settings. Only the result identifies the content: without it the report says
// "not verified", whatever else held. Nothing here touches the network.
#pragma once

#include "formats/squashfs_result.hpp"
#include "lock/lock.hpp"
#include "squashfs/superblock.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::squashfs {

enum class TreeCheck { skip, compute };

struct VerifyRequest {
  std::filesystem::path image;
  std::optional<formats::SquashfsResult> expected; // from --result, or the result beside the image
  std::string expected_from;                       // the result's path, for the report
  std::optional<lock::Enroot> enroot;              // from --lock
  std::string enroot_from;                         // the lock's path
  TreeCheck tree = TreeCheck::skip;
};

// One field compared with what a record expects.
struct Comparison {
  std::string what; // "size", "sha256", "tree digest", "mkfs time", "compression"
  std::string expected;
  std::string got;
  std::string against;     // the record's path
  bool identifies = false; // sha256, size and tree digest name the content; the others do not
  [[nodiscard]] bool holds() const { return expected == got; }
};

struct VerifyReport {
  Superblock superblock;
  std::string sha256;
  std::uint64_t size = 0;
  std::string tree_digest; // empty unless computed
  std::vector<Comparison> comparisons;
  std::vector<std::string> not_checked; // "sha256, size: no squashfs result (give --result FILE)"
  std::vector<std::string> mismatches;  // "sha256: expected X, got Y"
  // Something that identifies the content (sha256, size, tree digest) was compared.
  [[nodiscard]] bool content_compared() const;
};

// "not verified: nothing to compare the file with"
extern const char* const k_not_verified;

// Reads and checks the image. An input error (exit 2) when it is not a squashfs image;
// mismatches are values in the report.
Result<VerifyReport> verify_sqsh(const VerifyRequest& request);

// The human-readable report: superblock fields, what was checked against what, what was not,
// then "ok", one line per mismatch, or k_not_verified.
std::string render_verify_report(const VerifyRequest& request, const VerifyReport& report);

// The same as JSON (docs/manual/squashfs.md): the facts, `checked`, `not_checked`, `verdict`
// ("ok", "mismatch" or "not verified").
nlohmann::json verify_report_json(const VerifyRequest& request, const VerifyReport& report);

// The compressor named by `-comp X` in mksquashfs options, or "gzip" (mksquashfs's default).
std::string compressor_of(const std::string& squash_options);

} // namespace envlock::squashfs
