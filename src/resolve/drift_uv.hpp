// The uv.lock table a lock records (schema version, revision, requires-python, every package's
// version and source) against the uv.lock file it hashed, so that a lock edited by hand, or
// tampered with, is caught even when the file itself did not change.
#pragma once

#include "lock/lock.hpp"
#include "manifest/manifest.hpp"
#include "util/result.hpp"

#include <string>
#include <vector>

namespace envlock::resolve {

// Appends one "drift: python.uv_lock.packages.NAME: lock has ..., uv.lock has ..." line per
// package that differs (and one per differing header field). Does nothing when the file's sha256
// is no longer the lock's: that drift is reported on its own. Fails when the file cannot be read
// or parsed.
Status uv_table_drift(const manifest::Manifest& manifest, const lock::Lock& lock,
                      std::vector<std::string>& out);

} // namespace envlock::resolve
