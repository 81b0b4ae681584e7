// The squashfs superblock: the first 96 bytes of an image, little-endian (squashfs-tools
// squashfs_fs.h; docs/formats/squashfs-result.md lists the fields envlock reports).
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace envlock::squashfs {

inline constexpr std::size_t k_superblock_size = 96;
inline constexpr std::uint32_t k_squashfs_magic = 0x73717368; // "hsqs"

struct Superblock {
  std::uint32_t inode_count = 0;
  std::uint32_t mkfs_time = 0;
  std::uint32_t block_size = 0;
  std::uint32_t fragment_count = 0;
  std::uint16_t compression = 0;
  std::uint16_t block_log = 0;
  std::uint16_t flags = 0;
  std::uint16_t id_count = 0;
  std::uint16_t version_major = 0;
  std::uint16_t version_minor = 0;
  std::uint64_t bytes_used = 0;
  bool operator==(const Superblock&) const = default;
};

// Decodes a superblock from the first bytes of an image. An input error "not a squashfs image"
// when there are fewer than 96 bytes, the magic is wrong or the version is not 4.0.
Result<Superblock> parse_superblock(std::string_view bytes);

// Reads and decodes the superblock of the file at `path` (errors name the path).
Result<Superblock> read_superblock(const std::filesystem::path& path);

// "gzip", "lzma", "lzo", "xz", "lz4", "zstd", or "unknown(N)".
std::string compression_name(std::uint16_t id);

// The superblock as a JSON object (compression by name).
nlohmann::json to_json(const Superblock& sb);

} // namespace envlock::squashfs
