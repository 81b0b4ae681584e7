// Image references: parsing never crashes, and a parsed reference prints to text that parses
// back to the same reference.
#include "oci/image_ref.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto ref = envlock::oci::parse_image_ref(text);
  if (!ref) {
    return 0;
  }
  auto again = envlock::oci::parse_image_ref(ref->to_string());
  if (!again || !(*again == *ref)) {
    std::abort();
  }
  return 0;
}
