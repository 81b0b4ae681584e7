// The lock reader: any bytes give a lock or one error; a lock that reads back from its own
// canonical JSON is the same lock.
#include "lock/lock.hpp"
#include "util/json.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto json = envlock::util::parse_json(text, "fuzz.lock.json");
  if (!json) {
    return 0;
  }
  auto lock = envlock::lock::from_json(*json, "fuzz.lock.json");
  if (!lock) {
    return 0;
  }
  auto again = envlock::lock::from_json(envlock::lock::to_json(*lock), "fuzz.lock.json");
  if (!again || !(*again == *lock)) {
    std::abort();
  }
  return 0;
}
