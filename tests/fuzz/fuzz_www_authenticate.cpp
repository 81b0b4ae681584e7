// WWW-Authenticate header values from a registry: challenges or one error, never a crash.
#include "oci/challenge.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto challenges = envlock::oci::parse_www_authenticate(text);
  (void)challenges;
  return 0;
}
