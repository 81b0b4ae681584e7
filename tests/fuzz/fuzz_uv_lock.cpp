// uv.lock: the fast one-pass reader and the general TOML reader must agree. Both accept or both
// reject the same text, and when they accept they give the same packages.
#include "uv/uv_lock.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto fast = envlock::uv::parse_uv_lock(text, "uv.lock");
  auto general = envlock::uv::parse_uv_lock_toml(text, "uv.lock");
  if (fast.has_value() != general.has_value()) {
    std::abort();
  }
  if (fast && !(*fast == *general)) {
    std::abort();
  }
  return 0;
}
