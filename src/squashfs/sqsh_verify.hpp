// Offline checks of a .sqsh: its superblock, sha256 and size against squashfs-result.json, its
// tree digest (optional, it reads the whole image), or its times and compression against the
// lock's Enroot settings. Nothing here touches the network.
#pragma once

#include "lock/lock.hpp"
#include "squashfs/squash_result.hpp"
#include "squashfs/superblock.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::squashfs {

enum class TreeCheck { skip, compute };

struct VerifyRequest {
  std::filesystem::path image;
  std::optional<SquashResult> expected; // from --result
  std::optional<lock::Enroot> enroot;   // from --lock
  TreeCheck tree = TreeCheck::skip;
};

struct VerifyReport {
  Superblock superblock;
  std::string sha256;
  std::uint64_t size = 0;
  std::string tree_digest;             // empty unless computed
  std::vector<std::string> mismatches; // "sha256: expected X, got Y"
};

// Reads and checks the image. An input error (exit 2) when it is not a squashfs image;
// mismatches are values in the report.
Result<VerifyReport> verify_sqsh(const VerifyRequest& request);

// The human-readable report: superblock fields, then "ok" or one line per mismatch.
std::string render_verify_report(const VerifyRequest& request, const VerifyReport& report);

// The compressor named by `-comp X` in mksquashfs options, or "gzip" (mksquashfs's default).
std::string compressor_of(const std::string& squash_options);

} // namespace envlock::squashfs
