// uv.lock, the lock file of the uv package manager (TOML), read into lock::UvLockPin: the schema
// version (envlock reads version 1), the revision, requires-python and every [[package]]'s name,
// version and source. Everything else in the file (wheels, hashes, markers) is covered by the
// file's sha256, which the lock records beside the parsed table.
#pragma once

#include "lock/lock.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <string_view>

namespace envlock::uv {

// The largest uv.lock envlock reads (Megatron-LM's is about 1 MiB).
inline constexpr std::uintmax_t k_uv_lock_limit = std::uintmax_t{64} << 20U;

// Parses uv.lock text; `origin` names the file in messages. Fills version, revision,
// requires_python and packages (sorted by name, then version); path and sha256 are left empty.
// Errors (exit 2): "ORIGIN:LINE:COL: REASON" for malformed TOML, "ORIGIN: unsupported lock
// version 2 (envlock reads version 1)", "ORIGIN: package 'x': missing source".
Result<lock::UvLockPin> parse_uv_lock(std::string_view text, std::string_view origin);

// The same result, through the general TOML library (toml++). It is slower; parse_uv_lock uses it
// to word errors, and the tests use it to cross-check the fast reader on real locks.
Result<lock::UvLockPin> parse_uv_lock_toml(std::string_view text, std::string_view origin);

// The source kinds uv writes: registry, git, url, path, directory, editable, virtual.
const std::vector<std::string>& source_kinds();

} // namespace envlock::uv
