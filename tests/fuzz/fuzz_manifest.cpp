// The manifest reader: any text gives a manifest or one error, never a crash; a manifest that
// parses prints (to_json) to a document that parses back to the same manifest.
#include "manifest/manifest.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto manifest = envlock::manifest::parse_manifest(text, "fuzz/envlock.yaml");
  if (!manifest) {
    return 0;
  }
  const auto printed = envlock::manifest::to_json(*manifest);
  auto again = envlock::manifest::parse_manifest(printed.dump(), "fuzz/envlock.yaml");
  if (!again || envlock::manifest::to_json(*again) != printed) {
    std::abort();
  }
  return 0;
}
