// The fast uv.lock reader: one pass over the text that reads the subset of TOML uv writes (bare
// keys, one-line strings, integers, booleans, arrays, inline tables, [table] and [[array]]
// headers) and keeps only the fields envlock records. It checks the syntax it reads, including
// duplicate keys within a table, but it gives up, rather than guess, on anything else (multi-line
// strings, floats, dates, dotted or quoted keys, escapes in a recorded value, non-ASCII bytes):
// the caller then parses the text with toml++, which also words every syntax error.
#pragma once

#include "uv/raw_lock.hpp"

#include <optional>
#include <string_view>

namespace envlock::uv {

// The recorded fields, or nothing when the text is outside the subset or malformed.
std::optional<RawLock> read_fast(std::string_view text);

} // namespace envlock::uv
