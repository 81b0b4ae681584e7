// DSSE envelopes (signed provenance): the strict reader gives an envelope or one error; an
// envelope it accepts prints back to the same bytes, since verification refuses any other
// spelling.
#include "provenance/dsse.hpp"
#include "util/json.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace envlock;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto envelope = provenance::parse_envelope(text, "provenance.dsse.json");
  if (!envelope) {
    return 0;
  }
  if (util::canonical_json(provenance::to_json(*envelope)) != text) {
    std::abort();
  }
  return 0;
}
