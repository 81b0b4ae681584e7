#include "importer/eviction.hpp"

#include "importer/file_lock.hpp"
#include "importer/holds.hpp"

#include <algorithm>
#include <sys/stat.h>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

struct Entry {
  std::string key;
  fs::path sqsh;
  std::uint64_t size = 0;
  std::int64_t used_ns = 0; // the record's mtime; 0 without a record (oldest)
  bool quarantined = false;
};

std::int64_t mtime_ns(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return 0;
  }
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

std::vector<Entry> entries_in(const fs::path& folder, bool quarantined) {
  std::vector<Entry> out;
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(folder, ec)) {
    const std::string name = item.path().filename().string();
    if (!name.ends_with(".sqsh") || !item.is_regular_file(ec)) {
      continue;
    }
    Entry e;
    e.key = name.substr(0, name.size() - 5);
    e.sqsh = item.path();
    e.size = item.file_size(ec);
    e.used_ns = mtime_ns(item.path().string() + ".json");
    e.quarantined = quarantined;
    out.push_back(std::move(e));
  }
  return out;
}

void remove_entry(const Cache& cache, const Entry& e) {
  std::error_code ec;
  fs::remove(e.sqsh, ec);
  fs::remove(e.sqsh.string() + ".json", ec);
  fs::remove(cache.stamp(e.sqsh), ec);
}

} // namespace

std::uint64_t cache_bytes(const Cache& cache) {
  std::uint64_t total = 0;
  for (const auto& folder : {cache.images(), cache.dir() / "quarantine"}) {
    for (const auto& e : entries_in(folder, false)) {
      total += e.size;
    }
  }
  return total;
}

EvictionOutcome evict(const Cache& cache, std::uint64_t max_bytes, const std::string& keep,
                      std::int64_t hold_expiry_seconds) {
  EvictionOutcome out;
  std::vector<Entry> entries = entries_in(cache.dir() / "quarantine", true);
  for (auto& e : entries_in(cache.images(), false)) {
    entries.push_back(std::move(e));
  }
  for (const auto& e : entries) {
    out.bytes_before += e.size;
  }
  out.bytes_after = out.bytes_before;
  if (max_bytes == 0 || out.bytes_before <= max_bytes) {
    return out;
  }
  remove_expired_holds(cache, hold_expiry_seconds);
  // Quarantined files first, then the least recently used images.
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.quarantined != b.quarantined) {
      return a.quarantined;
    }
    return a.used_ns != b.used_ns ? a.used_ns < b.used_ns : a.key < b.key;
  });
  for (const auto& e : entries) {
    if (out.bytes_after <= max_bytes) {
      break;
    }
    if (e.quarantined) {
      remove_entry(cache, e);
      out.bytes_after -= e.size;
      continue;
    }
    if (e.key == keep || is_held(cache, e.key, hold_expiry_seconds)) {
      ++out.kept_in_use;
      continue;
    }
    // A get of this image in progress holds its lock: leave the image to it.
    const auto lock = FileLock::try_acquire(cache.lock(e.key));
    if (!lock) {
      ++out.kept_in_use;
      continue;
    }
    remove_entry(cache, e);
    out.bytes_after -= e.size;
    out.removed.push_back(e.key);
  }
  return out;
}

} // namespace envlock::importer
