// Slurm host lists ("node[01-04,7],gpu-a[1-2]"): a list of names or one error, never a crash and
// never an unbounded expansion.
#include "fleet/hostlist.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)envlock::fleet::expand_hostlist(text);
  return 0;
}
