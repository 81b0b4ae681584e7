// The squashfs superblock decoder: any bytes give a superblock or "not a squashfs image".
#include "squashfs/superblock.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  if (auto super = envlock::squashfs::parse_superblock(bytes)) {
    (void)envlock::formats::to_json(*super);
  }
  return 0;
}
