// NAME.squashfs-result.json (envlock.squashfs-result/v1, docs/formats/squashfs-result.md): what
// `envlock squashfs` made and how. It holds no time, host or path of this machine, so the same
// inputs give the same bytes. `envlock squashfs verify`, `envlock provenance`, `envlock chain`,
// `envlock rollback check`, `envlock fleet distribute`, `envlock handover`, envlock-verify (the
// record beside --sqsh) and the importer read it.
#pragma once

#include "formats/record.hpp"
#include "lock/lock.hpp"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::formats {

inline constexpr const char* k_squashfs_result_schema = "envlock.squashfs-result/v1";
// The name before results were named after their .sqsh; readers still accept it.
inline constexpr const char* k_squashfs_result_file = "squashfs-result.json";
inline constexpr const char* k_squashfs_result_suffix = ".squashfs-result.json";
inline constexpr const char* k_enroot_compat = "4.1.2";

// The squashfs superblock's fields (squashfs-tools squashfs_fs.h); squashfs/superblock.hpp
// decodes them from an image.
struct SquashfsSuperblock {
  std::uint32_t inode_count = 0;
  std::uint32_t mkfs_time = 0;
  std::uint32_t block_size = 0;
  std::uint32_t fragment_count = 0;
  std::uint16_t compression = 0;
  std::uint16_t block_log = 0; // log2(block_size); not written
  std::uint16_t flags = 0;
  std::uint16_t id_count = 0;
  std::uint16_t version_major = 0;
  std::uint16_t version_minor = 0;
  std::uint64_t bytes_used = 0;
  bool operator==(const SquashfsSuperblock&) const = default;
};

// "gzip", "lzma", "lzo", "xz", "lz4", "zstd", or "unknown(N)".
std::string compression_name(std::uint16_t id);

// The superblock as a JSON object (compression by name, version as "4.0").
nlohmann::json to_json(const SquashfsSuperblock& sb);

struct SquashfsResult {
  std::string image_reference; // as given (REF@DIGEST), or the OCI layout and its ref
  std::string manifest_digest; // the platform manifest that was squashed
  std::string platform;
  std::string file_name; // the .sqsh's file name (no folder)
  std::string sha256;    // of the .sqsh, 64 hex
  std::uint64_t size = 0;
  std::string tree_digest; // "sha256:..." (tree-digest.md)
  std::string producer;    // "envlock" or "enroot"
  std::string enroot_compatible_with = k_enroot_compat;
  std::string squashfs_tools_version;            // "4.5.1"
  std::vector<std::string> mksquashfs_arguments; // after ROOTFS and OUTPUT
  std::string squash_options;
  std::int64_t source_date_epoch = 0;
  lock::EnrootLocale locale = lock::EnrootLocale::utf8; // of Enroot's bash writing /etc/rc
  SquashfsSuperblock superblock;
  bool operator==(const SquashfsResult&) const = default;
};

nlohmann::json to_json(const SquashfsResult& result);

// Reads a result; an input error names `origin` and the field ("r.json: sqsh.sha256: missing").
// enroot.locale may be absent (results written before it existed): C.UTF-8.
template <>
Result<SquashfsResult> from_json<SquashfsResult>(const nlohmann::json& value,
                                                 const std::string& origin);

Result<SquashfsResult> read_squashfs_result(const std::filesystem::path& path);
Status write_squashfs_result(const std::filesystem::path& path, const SquashfsResult& result);

// Where `envlock squashfs -o NAME.sqsh` writes its result: NAME.squashfs-result.json beside it,
// so two images squashed into one folder keep one result each.
std::filesystem::path squashfs_result_path_for(const std::filesystem::path& sqsh);

// The result that describes the .sqsh at `sqsh`: the first of NAME.squashfs-result.json and
// squashfs-result.json beside it that exists, reads and whose sqsh.file is the .sqsh's name.
// An input error when none does, naming every path looked at ("no squashfs result describes
// a/train.sqsh (looked for a/train.squashfs-result.json, a/squashfs-result.json (it describes
// b.sqsh)); give --result FILE"), or the first that exists but does not read.
struct FoundSquashfsResult {
  std::filesystem::path path;
  SquashfsResult result;
};
Result<FoundSquashfsResult> find_squashfs_result_beside(const std::filesystem::path& sqsh);

// The results in `folder` (squashfs-result.json and every NAME.squashfs-result.json that is a
// regular file), sorted by name; none when the folder cannot be listed.
std::vector<std::filesystem::path> squashfs_results_in(const std::filesystem::path& folder);

// The result of a folder (a project's, beside its lock): the only one squashfs_results_in finds;
// nothing when there is none, or several (then it must be named).
std::optional<std::filesystem::path> squashfs_result_in(const std::filesystem::path& folder);

} // namespace envlock::formats
