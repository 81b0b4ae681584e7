// The squashfs superblock: the first 96 bytes of an image, little-endian (squashfs-tools
// squashfs_fs.h; docs/formats/squashfs-result.md lists the fields envlock reports), decoded.
#pragma once

#include "formats/squashfs_result.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace envlock::squashfs {

inline constexpr std::size_t k_superblock_size = 96;
inline constexpr std::uint32_t k_squashfs_magic = 0x73717368; // "hsqs"

// The superblock's fields; the record's type (formats/squashfs_result.hpp), decoded here.
using Superblock = formats::SquashfsSuperblock;
using formats::compression_name;

// Decodes a superblock from the first bytes of an image. An input error "not a squashfs image"
// when there are fewer than 96 bytes, the magic is wrong or the version is not 4.0.
Result<Superblock> parse_superblock(std::string_view bytes);

// Reads and decodes the superblock of the file at `path` (errors name the path).
Result<Superblock> read_superblock(const std::filesystem::path& path);

} // namespace envlock::squashfs
