// Keeping the cache within cache_max_bytes: after an import, the images used least recently (by
// their record's mtime, which every get renews) are removed until the images and the quarantine
// fit, skipping any image that is in use: held by a job step (holds.hpp) or locked by a get in
// progress. The image just imported is never removed; when only images in use are left and the
// cache is still over its budget, it stays over and says so.
#pragma once

#include "importer/cache.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace envlock::importer {

struct EvictionOutcome {
  std::vector<std::string> removed; // keys, least recently used first
  std::uint64_t bytes_before = 0;
  std::uint64_t bytes_after = 0;
  int kept_in_use = 0; // images over the budget that could not go because they are in use
};

// The bytes the cache holds now: every images/*.sqsh and quarantine/*.sqsh.
std::uint64_t cache_bytes(const Cache& cache);

// Evicts as described above; `max_bytes` 0 means no limit (nothing is removed).
EvictionOutcome evict(const Cache& cache, std::uint64_t max_bytes, const std::string& keep,
                      std::int64_t hold_expiry_seconds);

} // namespace envlock::importer
