#include "squashfs/sqsh_verify.hpp"
#include "squashfs/superblock.hpp"

#include <doctest/doctest.h>

using namespace envlock::squashfs;

namespace {

void put(std::string& bytes, std::size_t offset, std::uint64_t value, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i) {
    bytes[offset + i] = static_cast<char>((value >> (8 * i)) & 0xff);
  }
}

std::string superblock_bytes() {
  std::string b(96, '\0');
  put(b, 0, k_squashfs_magic, 4);
  put(b, 4, 402, 4);
  put(b, 8, 1700000000, 4);
  put(b, 12, 131072, 4);
  put(b, 20, 3, 2);
  put(b, 22, 17, 2);
  put(b, 24, 0xc2, 2);
  put(b, 28, 4, 2);
  put(b, 30, 0, 2);
  put(b, 40, 123456, 8);
  return b;
}

} // namespace

TEST_SUITE("squashfs") {

  TEST_CASE("parse_superblock decodes the little-endian fields") {
    const auto sb = parse_superblock(superblock_bytes());
    REQUIRE(sb);
    CHECK(sb->inode_count == 402);
    CHECK(sb->mkfs_time == 1700000000);
    CHECK(sb->block_size == 131072);
    CHECK(compression_name(sb->compression) == "lzo");
    CHECK(sb->flags == 0xc2);
    CHECK(sb->bytes_used == 123456);
  }

  TEST_CASE("parse_superblock refuses what is not squashfs 4.0") {
    CHECK(parse_superblock("short").error().message ==
          "not a squashfs image (shorter than its 96-byte superblock)");
    std::string bad = superblock_bytes();
    bad[0] = 'x';
    CHECK(parse_superblock(bad).error().message == "not a squashfs image (bad magic)");
    std::string v3 = superblock_bytes();
    put(v3, 28, 3, 2);
    CHECK(parse_superblock(v3).error().message ==
          "not a squashfs image (version 3.0, expected 4.0)");
    CHECK(compression_name(9) == "unknown(9)");
  }

  TEST_CASE("compressor_of reads -comp from mksquashfs options") {
    CHECK(compressor_of("-comp lzo -noD -exit-on-error") == "lzo");
    CHECK(compressor_of("-noD") == "gzip");
    CHECK(compressor_of("-b 1M -comp zstd -Xcompression-level 3") == "zstd");
  }
}
