#include "importer/importer.hpp"

#include "formats/image_record.hpp"
#include "importer/cache.hpp"
#include "importer/eviction.hpp"
#include "importer/expected.hpp"
#include "importer/file_lock.hpp"
#include "importer/image_uri.hpp"
#include "importer/import_image.hpp"
#include "importer/pins.hpp"
#include "importer/shared_cache.hpp"
#include "importer/stamp.hpp"
#include "importer/trusted_path.hpp"
#include "importer/unpinned.hpp"
#include "util/fs.hpp"

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

// The stamp of `file` in `cache`; none without a cache.
fs::path stamp_in(const Cache* cache, const fs::path& file) {
  return cache == nullptr ? fs::path() : cache->stamp(file);
}

Checked checked_by(const Hashed& hashed) {
  return hashed.from_stamp ? Checked::caller_stamp : Checked::hashed;
}

// Checks a .sqsh envlock does not own (pre-distributed, or given by path) against `sha256`.
Result<Checked> check_foreign(const Cache* cache, const fs::path& sqsh, const std::string& sha256,
                              const std::string& source) {
  ENVLOCK_TRY_ASSIGN(const Hashed hashed, verified_sha256(sqsh, stamp_in(cache, sqsh)));
  if (hashed.sha256 != sha256) {
    return check_failed(sqsh.string() + ": sha256 " + hashed.sha256 + ", expected " + sha256 +
                        " (from " + source +
                        "); refusing it (envlock leaves files it did not "
                        "make where they are: copy the image again, e.g. with envlock fleet "
                        "distribute)");
  }
  return checked_by(hashed);
}

void remove_entry(const Cache& cache, const std::string& key) {
  std::error_code ec;
  fs::remove(cache.image(key), ec);
  fs::remove(cache.record(key), ec);
  fs::remove(cache.stamp(cache.image(key)), ec);
}

struct CachedHit {
  std::string sha256;
  Checked checked = Checked::hashed;
};

// The sha256 of the cached image of `key`, checked; nothing when the cache does not hold it (or
// only part of it). The caller's own cache is the caller's word: a stamp there vouches for the
// file only to the caller, and the outcome says so (Checked::caller_stamp).
Result<std::optional<CachedHit>> use_cached(const Context& c, const Cache& cache,
                                            const std::string& key, const Expectation& expected) {
  const fs::path image = cache.image(key);
  if (!util::path_exists(image) || !util::path_exists(cache.record(key))) {
    return std::optional<CachedHit>();
  }
  auto record = formats::read_image_record(cache.record(key));
  if (!record) {
    c.note("warning: " + record.error().message + "; importing the image again");
    return std::optional<CachedHit>();
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
  return std::optional<CachedHit>(CachedHit{want, checked_by(hashed)});
}

// The pre-distributed image, when it is there and right. A corrupt one is reported and, unless
// on_corrupt is refuse, left for the shared cache or the registry to stand in for.
Result<std::optional<GetOutcome>> use_distributed(const Context& c, const Cache* cache,
                                                  const Expectation& expected) {
  if (!expected.distributed || !util::path_exists(expected.distributed->sqsh)) {
    return std::optional<GetOutcome>();
  }
  const fs::path sqsh = expected.distributed->sqsh;
  auto checked = check_foreign(cache, sqsh, expected.sha256, expected.source);
  if (checked) {
    return std::optional<GetOutcome>(
        GetOutcome{fs::absolute(sqsh), Source::distributed, expected.sha256, *checked});
  }
  if (checked.error().code != ExitCode::failed || c.config.on_corrupt == OnCorrupt::refuse) {
    return checked.error();
  }
  ENVLOCK_TRY_ASSIGN(const Hashed hashed, verified_sha256(sqsh, stamp_in(cache, sqsh)));
  c.note("warning: corrupt pre-distributed image " + sqsh.string() + ": sha256 " + hashed.sha256 +
         ", expected " + expected.sha256 + " (from " + expected.source +
         "); the job gets the image from the shared cache or the registry instead (on_corrupt: "
         "fallback)");
  return std::optional<GetOutcome>();
}

Result<GetOutcome> get_through_cache(const Context& c, const Pin& pin,
                                     const Expectation& expected) {
  // A cache folder of this uid that is not this user's own (another user made it first) is not
  // used: the pre-distributed image and the shared cache still serve the job.
  auto opened = Cache::open(c.config.cache, c.uid);
  const Cache* own = opened ? &*opened : nullptr;
  if (!opened) {
    c.note("warning: " + opened.error().message + "; this user's cache is not used");
  }
  ENVLOCK_TRY_ASSIGN(const auto distributed, use_distributed(c, own, expected));
  if (distributed) {
    return *distributed;
  }
  const std::string key = cache_key(pin.platform_digest, pin.platform, pin.settings);
  if (!c.config.shared_cache.empty()) {
    const SharedLookup shared =
        shared_lookup(c.config.shared_cache, key, expected.sha256, own,
                      std::chrono::seconds(c.config.lock_timeout_seconds), c.note);
    if (shared.hit) {
      return GetOutcome{shared.hit->sqsh, Source::shared, shared.hit->sha256, shared.hit->checked};
    }
    if (!shared.problem.empty()) {
      c.note("warning: " + shared.problem + "; using this user's cache");
    }
  }
  if (!opened) {
    return opened.error();
  }
  const Cache& cache = *opened;
  const std::string shown = pin.image.name() + "@" + pin.platform_digest;
  ENVLOCK_TRY_ASSIGN(
      const FileLock lock,
      FileLock::acquire(cache.lock(key), std::chrono::seconds(c.config.lock_timeout_seconds),
                        [&](long holder) {
                          c.note("waiting up to " + std::to_string(c.config.lock_timeout_seconds) +
                                 " s for another get of " + shown +
                                 (holder > 0 ? " (pid " + std::to_string(holder) + ")" : ""));
                        }));
  ENVLOCK_TRY_ASSIGN(const auto cached, use_cached(c, cache, key, expected));
  Source source = Source::cached;
  std::string sha256 = cached ? cached->sha256 : std::string();
  Checked checked = cached ? cached->checked : Checked::hashed;
  if (!cached) {
    remove_entry(cache, key);
    ImportJob job{&cache, key, pin, expected, c.config.registry, c.note};
    ENVLOCK_TRY_ASSIGN(const formats::ImageRecord imported, import_image(job));
    sha256 = imported.sha256;
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
  return GetOutcome{cache.image(key), source, sha256, checked};
}

} // namespace

void note_pin(const Context& c, const Pin& pin) {
  if (c.audit == nullptr) {
    return;
  }
  c.audit->pin_role = pin.role;
  c.audit->pin_lock = pin.lock_path.string();
  c.audit->pin_lock_sha256 = pin.lock_sha256;
  c.audit->pin_digest = pin.image.digest;
  c.audit->pin_manifest_digest = pin.platform_digest;
}

namespace {

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
      return GetOutcome{path, Source::path, ""};
    }
  }
  if (pin) {
    note_pin(c, *pin);
  }
  auto cache = Cache::open(c.config.cache, c.uid);
  ENVLOCK_TRY_ASSIGN(const Checked checked,
                     check_foreign(cache ? &*cache : nullptr, path, record->result.sha256,
                                   record->record.string()));
  return GetOutcome{path, Source::path, record->result.sha256, checked};
}

} // namespace

const char* to_string(Source source) {
  switch (source) {
  case Source::distributed:
    return "pre-distributed";
  case Source::shared:
    return "shared";
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
  ENVLOCK_TRY_ASSIGN(const Catalogue catalogue, read_catalogue(c.config.locks, c.config.trust));
  for (const auto& warning : catalogue.warnings) {
    c.note("warning: " + warning);
  }
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
  note_pin(c, pin);
  ENVLOCK_TRY_ASSIGN(const Expectation expected, expectation_of(c, pin));
  return get_through_cache(c, pin, expected);
}

std::vector<fs::path> usable_sqsh_dirs(const Context& c) {
  if (c.config.trust != Trust::system) {
    return c.config.sqsh_dirs;
  }
  std::vector<fs::path> out;
  for (const auto& dir : c.config.sqsh_dirs) {
    std::error_code ec;
    // A missing folder is kept: scan_sqsh_dirs says it is missing.
    const auto problem =
        fs::exists(fs::symlink_status(dir, ec)) ? untrusted_because(dir) : std::nullopt;
    if (problem) {
      c.note("warning: sqsh_dirs entry ignored: " + *problem +
             "; a user could plant records in it");
    } else {
      out.push_back(dir);
    }
  }
  return out;
}

SqshDirScan scan_usable_sqsh_dirs(const Context& c) {
  SqshDirScan scan = scan_sqsh_dirs(usable_sqsh_dirs(c), c.config.trust);
  for (const auto& warning : scan.warnings) {
    c.note("warning: " + warning);
  }
  return scan;
}

Result<Expectation> expectation_of(const Context& c, const Pin& pin) {
  return expectation_for(pin, c.config, scan_usable_sqsh_dirs(c));
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
