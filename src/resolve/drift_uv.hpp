// The uv.lock table a lock records (schema version, revision, requires-python, every package's
// version and source) against the uv.lock file it hashed: a lock edited by hand, or tampered with,
// is caught even when the file itself did not change, and when the file changed the packages that
// moved are named (as `envlock diff` names them), not only its two sha256s.
#pragma once

#include "lock/lock.hpp"
#include "manifest/manifest.hpp"
#include "util/result.hpp"

#include <string>
#include <vector>

namespace envlock::resolve {

// A package whose versions or sources differ between the lock's table and uv.lock now.
struct PackageMove {
  std::string name;
  std::string kind; // "added", "removed", "upgraded", "downgraded", "changed" (as envlock diff)
  std::vector<lock::UvPackage> in_lock; // what the lock records under the name; empty: none
  std::vector<lock::UvPackage> in_file; // what uv.lock records now
  bool operator==(const PackageMove&) const = default;
};

// Reads uv.lock now and refuses it (check_python_inputs, exit 2) when it no longer satisfies
// pyproject.toml or contradicts the manifest's expect. Then, when its sha256 is still the lock's,
// appends one "drift: python.uv_lock.packages.NAME: lock has ..., uv.lock has ..." line per
// package that differs (and one per differing header field): the lock was edited. When the
// sha256 changed (that drift is reported on its own), appends one line per package that moved,
// "drift: python.uv_lock.packages.NAME: upgraded: lock has ..., uv.lock has ...", and adds each
// to `moves`. Does nothing when the file cannot be read (its sha256 drift says so). Fails when it
// cannot be parsed.
Status uv_table_drift(const manifest::Manifest& manifest, const lock::Lock& lock,
                      std::vector<std::string>& out, std::vector<PackageMove>& moves);

} // namespace envlock::resolve
