// Registry responses: the same bytes read as an image index (platform selection), an image
// manifest, an image config and a token endpoint's answer; each gives a value or one error.
#include "oci/auth.hpp"
#include "oci/platform.hpp"
#include "squashfs/image_config.hpp"
#include "util/json.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto json = envlock::util::parse_json(text, "index")) {
    const envlock::oci::Platform amd64{"linux", "amd64", ""};
    const envlock::oci::Platform arm64{"linux", "arm64", "v8"};
    (void)envlock::oci::select_platform(*json, amd64, "fuzz/image:tag");
    (void)envlock::oci::select_platform(*json, arm64, "fuzz/image:tag");
  }
  (void)envlock::squashfs::parse_image_manifest(text, "manifest");
  (void)envlock::squashfs::parse_image_config(text, "config");
  (void)envlock::oci::parse_token_response(text, "http://127.0.0.1/token");
  return 0;
}
