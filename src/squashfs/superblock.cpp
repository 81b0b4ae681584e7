#include "squashfs/superblock.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace envlock::squashfs {

namespace {

template <typename T> T little_endian(std::string_view bytes, std::size_t offset) {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    value |=
        static_cast<T>(static_cast<T>(static_cast<unsigned char>(bytes[offset + i])) << (8 * i));
  }
  return value;
}

} // namespace

Result<Superblock> parse_superblock(std::string_view bytes) {
  if (bytes.size() < k_superblock_size) {
    return input_error("not a squashfs image (shorter than its 96-byte superblock)");
  }
  if (little_endian<std::uint32_t>(bytes, 0) != k_squashfs_magic) {
    return input_error("not a squashfs image (bad magic)");
  }
  Superblock sb;
  sb.inode_count = little_endian<std::uint32_t>(bytes, 4);
  sb.mkfs_time = little_endian<std::uint32_t>(bytes, 8);
  sb.block_size = little_endian<std::uint32_t>(bytes, 12);
  sb.fragment_count = little_endian<std::uint32_t>(bytes, 16);
  sb.compression = little_endian<std::uint16_t>(bytes, 20);
  sb.block_log = little_endian<std::uint16_t>(bytes, 22);
  sb.flags = little_endian<std::uint16_t>(bytes, 24);
  sb.id_count = little_endian<std::uint16_t>(bytes, 26);
  sb.version_major = little_endian<std::uint16_t>(bytes, 28);
  sb.version_minor = little_endian<std::uint16_t>(bytes, 30);
  sb.bytes_used = little_endian<std::uint64_t>(bytes, 40);
  if (sb.version_major != 4 || sb.version_minor != 0) {
    return input_error("not a squashfs image (version " + std::to_string(sb.version_major) + "." +
                       std::to_string(sb.version_minor) + ", expected 4.0)");
  }
  return sb;
}

Result<Superblock> read_superblock(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return input_error(path.string() + ": " + std::strerror(errno));
  }
  std::array<char, k_superblock_size> buf{};
  in.read(buf.data(), buf.size());
  auto sb = parse_superblock(std::string_view(buf.data(), static_cast<std::size_t>(in.gcount())));
  if (!sb) {
    return input_error(path.string() + ": " + sb.error().message);
  }
  return sb;
}

} // namespace envlock::squashfs
