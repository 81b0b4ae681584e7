// squashfs-result.json: what `envlock squashfs` made and how (docs/formats/squashfs-result.md).
// Canonical JSON written atomically; it holds no time, host or path of this machine, so the same
// inputs give the same bytes. `envlock squashfs verify` and `envlock provenance` read it.
#pragma once

#include "lock/lock.hpp"
#include "squashfs/superblock.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::squashfs {

inline constexpr const char* k_result_schema = "envlock.squashfs-result/v1";
inline constexpr const char* k_enroot_compat = "4.1.2";

struct SquashResult {
  std::string image_reference; // as given (REF@DIGEST), or the OCI layout and its ref
  std::string manifest_digest; // the platform manifest that was squashed
  std::string platform;
  std::string file_name; // the .sqsh's file name (no folder)
  std::string sha256;    // of the .sqsh, 64 hex
  std::uint64_t size = 0;
  std::string tree_digest;                       // "sha256:..." (tree-digest.md)
  std::string producer;                          // "envlock" or "enroot"
  std::string squashfs_tools_version;            // "4.5.1"
  std::vector<std::string> mksquashfs_arguments; // after ROOTFS and OUTPUT
  std::string squash_options;
  std::int64_t source_date_epoch = 0;
  lock::EnrootLocale locale = lock::EnrootLocale::utf8; // of Enroot's bash writing /etc/rc
  Superblock superblock;
  bool operator==(const SquashResult&) const = default;
};

nlohmann::json to_json(const SquashResult& result);

// Reads a result object; errors name `origin` and the field ("r.json: sqsh.sha256: missing").
// image.platform, enroot.squash_options and enroot.source_date_epoch are read when present.
Result<SquashResult> result_from_json(const nlohmann::json& value, const std::string& origin);

Result<SquashResult> read_result(const std::filesystem::path& path);
Status write_result(const std::filesystem::path& path, const SquashResult& result);

// Where `envlock squashfs -o NAME.sqsh` writes its result: NAME.squashfs-result.json beside it,
// so two images squashed into one folder keep one result each.
std::filesystem::path result_path_for(const std::filesystem::path& sqsh);

// The result files that may describe `sqsh`, most specific first: NAME.squashfs-result.json,
// then squashfs-result.json (the name before results were named after their .sqsh). A file
// describes the .sqsh only when its sqsh.file is the .sqsh's name.
std::vector<std::filesystem::path> result_candidates(const std::filesystem::path& sqsh);

// The first candidate that exists, reads and names `sqsh`; an input error naming every path
// looked at when none does.
struct FoundResult {
  std::filesystem::path path;
  SquashResult result;
};
Result<FoundResult> find_result_beside(const std::filesystem::path& sqsh);

} // namespace envlock::squashfs
