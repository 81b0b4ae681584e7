// PEP 508 requirements and PEP 440 specifiers (uv/requirement.hpp, uv/specifier.hpp), and the
// uv lock --check comparison (uv/lock_satisfies.hpp): parsing never crashes; a requirement's
// specifiers in their normal form parse back to the same normal form. An input holding a NUL byte
// is also split there into a pyproject.toml and a uv.lock, compared without crashing.
#include "uv/lock_satisfies.hpp"
#include "uv/requirement.hpp"
#include "uv/specifier.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    (void)envlock::uv::check_satisfies(text.substr(0, nul), "pyproject.toml", text.substr(nul + 1),
                                       "uv.lock");
    return 0;
  }
  const auto requirement = envlock::uv::parse_requirement(text);
  if (requirement) {
    const std::string normal = envlock::uv::normal_form(requirement->specifiers);
    const auto again = envlock::uv::parse_specifiers(normal);
    if (!again || envlock::uv::normal_form(*again) != normal) {
      std::abort();
    }
  }
  (void)envlock::uv::parse_specifiers(text);
  return 0;
}
