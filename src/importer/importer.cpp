#include "importer/importer.hpp"

#include "importer/cache.hpp"
#include "importer/eviction.hpp"
#include "importer/expected.hpp"
#include "importer/file_lock.hpp"
#include "importer/image_uri.hpp"
#include "importer/import_image.hpp"
#include "importer/pins.hpp"
#include "importer/record.hpp"
#include "importer/stamp.hpp"
#include "importer/unpinned.hpp"
#include "util/fs.hpp"

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

// Checks a .sqsh envlock does not own (pre-distributed, or given by path) against `sha256`.
Status check_foreign(const Cache& cache, const fs::path& sqsh, const std::string& sha256,
                     const std::string& source) {
  ENVLOCK_TRY_ASSIGN(const Hashed hashed, verified_sha256(sqsh, cache.stamp(sqsh)));
  if (hashed.sha256 != sha256) {
    return check_failed(sqsh.string() + ": sha256 " + hashed.sha256 + ", expected " + sha256 +
                        " (from " + source +
                        "); refusing it (envlock leaves files it did not "
                        "make where they are: copy the image again, e.g. with envlock fleet "
                        "distribute)");
  }
  return {};
}

void remove_entry(const Cache& cache, const std::string& key) {
  std::error_code ec;
  fs::remove(cache.image(key), ec);
  fs::remove(cache.record(key), ec);
  fs::remove(cache.stamp(cache.image(key)), ec);
}

// The cached image of `key`, checked; nothing when the cache does not hold it (or only part).
Result<bool> use_cached(const Context& c, const Cache& cache, const std::string& key,
                        const Expectation& expected) {
  const fs::path image = cache.image(key);
  if (!util::path_exists(image) || !util::path_exists(cache.record(key))) {
    return false;
  }
  auto record = read_record(cache.record(key));
  if (!record) {
    c.note("warning: " + record.error().message + "; importing the image again");
    return false;
  }
  const std::string want = expected.sha256.empty() ? record->sha256 : expected.sha256;
  const std::string source =
      expected.sha256.empty() ? cache.record(key).string() + ", first import" : expected.source;
  ENVLOCK_TRY_ASSIGN(const Hashed hashed, verified_sha256(image, cache.stamp(image)));
  if (hashed.sha256 != want) {
    ENVLOCK_TRY_ASSIGN(const fs::path moved, quarantine_image(cache, key, image));
    return check_failed(image.string() + ": sha256 " + hashed.sha256 + ", expected " + want +
                        " (from " + source + "); moved to " + moved.string() +
                        "; the next get imports the image again");
  }
  return true;
}

Result<GetOutcome> get_through_cache(const Context& c, const Pin& pin,
                                     const Expectation& expected) {
  ENVLOCK_TRY_ASSIGN(const Cache cache, Cache::open(c.config.cache, c.uid));
  if (expected.distributed && util::path_exists(expected.distributed->sqsh)) {
    ENVLOCK_TRY(check_foreign(cache, expected.distributed->sqsh, expected.sha256, expected.source));
    return GetOutcome{fs::absolute(expected.distributed->sqsh), Source::distributed};
  }
  const std::string key = cache_key(pin.platform_digest, pin.platform, pin.settings);
  const std::string shown = pin.image.name() + "@" + pin.platform_digest;
  ENVLOCK_TRY_ASSIGN(
      const FileLock lock,
      FileLock::acquire(cache.lock(key), std::chrono::seconds(c.config.lock_timeout_seconds),
                        [&](long holder) {
                          c.note("waiting for another get of " + shown +
                                 (holder > 0 ? " (pid " + std::to_string(holder) + ")" : ""));
                        }));
  ENVLOCK_TRY_ASSIGN(const bool cached, use_cached(c, cache, key, expected));
  Source source = Source::cached;
  if (!cached) {
    remove_entry(cache, key);
    ImportJob job{&cache, key, pin, expected, c.config.registry, c.note};
    ENVLOCK_TRY(import_image(job));
    source = Source::imported;
  }
  touch_used(cache, key);
  ENVLOCK_TRY(add_hold(cache, c.step, key));
  if (source == Source::imported) {
    const auto evicted = evict(cache, c.config.cache_max_bytes, key, c.config.hold_expiry_seconds);
    for (const auto& removed : evicted.removed) {
      c.note("evicted " + removed + " (least recently used)");
    }
    if (evicted.bytes_after > c.config.cache_max_bytes && c.config.cache_max_bytes > 0) {
      c.note("warning: the cache holds " + std::to_string(evicted.bytes_after) +
             " bytes, over cache_max_bytes " + std::to_string(c.config.cache_max_bytes) +
             ", with " + std::to_string(evicted.kept_in_use) + " image(s) in use");
    }
  }
  return GetOutcome{cache.image(key), source};
}

Result<GetOutcome> get_path(const Context& c, const Catalogue& catalogue, const ImageUri& uri) {
  const fs::path path = fs::absolute(uri.path).lexically_normal();
  const auto record = record_beside(path);
  std::optional<Pin> pin;
  if (record) {
    auto ref = oci::parse_image_ref(record->result.image_reference);
    if (ref) {
      pin = find_pin_by_manifest(catalogue, ref->name(), record->result.manifest_digest);
    }
  }
  if (!pin) {
    const std::string why = record ? "the image " + record->result.image_reference + " that " +
                                         record->record.string() + " names"
                                   : "no squashfs-result.json beside it names it, so it";
    ENVLOCK_TRY(apply_policy(c, catalogue, uri.text + ": " + why + " is pinned by no lock"));
    if (!record) {
      return GetOutcome{path, Source::path};
    }
  }
  ENVLOCK_TRY_ASSIGN(const Cache cache, Cache::open(c.config.cache, c.uid));
  ENVLOCK_TRY(check_foreign(cache, path, record->result.sha256, record->record.string()));
  return GetOutcome{path, Source::path};
}

} // namespace

const char* to_string(Source source) {
  switch (source) {
  case Source::distributed:
    return "pre-distributed";
  case Source::cached:
    return "cached";
  case Source::imported:
    return "imported";
  case Source::path:
    return "given path";
  }
  return "cached";
}

Result<GetOutcome> get(const Context& c, std::string_view text) {
  ENVLOCK_TRY_ASSIGN(const ImageUri uri, parse_image_uri(text));
  ENVLOCK_TRY_ASSIGN(const Catalogue catalogue, read_catalogue(c.config.locks));
  if (uri.kind == UriKind::sqsh_path) {
    return get_path(c, catalogue, uri);
  }
  ENVLOCK_TRY_ASSIGN(const std::optional<Pin> found, find_pin(catalogue, uri));
  Pin pin;
  if (found) {
    pin = *found;
  } else {
    ENVLOCK_TRY_ASSIGN(pin, unpinned_image(c, catalogue, uri));
  }
  const SqshDirScan scan = scan_sqsh_dirs(c.config.sqsh_dirs);
  for (const auto& warning : scan.warnings) {
    c.note("warning: " + warning);
  }
  ENVLOCK_TRY_ASSIGN(const Expectation expected, expectation_for(pin, c.config, scan));
  return get_through_cache(c, pin, expected);
}

Result<int> release(const Context& c) {
  std::error_code ec;
  if (!fs::is_directory(c.config.cache / std::to_string(c.uid), ec)) {
    return 0;
  }
  ENVLOCK_TRY_ASSIGN(const Cache cache, Cache::open(c.config.cache, c.uid));
  const int released = release_holds(cache, c.step);
  remove_stale_imports(cache, "");
  return released;
}

} // namespace envlock::importer
