#include "uv/uv_lock.hpp"

#include "uv/fast_reader.hpp"
#include "uv/raw_lock.hpp"

namespace envlock::uv {

Result<lock::UvLockPin> parse_uv_lock(std::string_view text, std::string_view origin) {
  if (auto raw = read_fast(text)) {
    return finish_lock(std::move(*raw), origin);
  }
  return parse_uv_lock_toml(text, origin);
}

} // namespace envlock::uv
