#include "importer/enforce.hpp"

#include "importer/cache.hpp"
#include "importer/expected.hpp"
#include "importer/image_uri.hpp"
#include "importer/pins.hpp"
#include "importer/shared_cache.hpp"
#include "importer/stamp.hpp"
#include "importer/unpinned.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

// The sqsh_dirs folder `path` lies in (both resolved), if any.
std::optional<fs::path> folder_holding(const std::vector<fs::path>& dirs, const fs::path& path) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(path, ec);
  for (const auto& dir : dirs) {
    const fs::path base = fs::weakly_canonical(dir, ec);
    const std::string prefix = base.string() + "/";
    if (real.string().starts_with(prefix)) {
      return dir;
    }
  }
  return std::nullopt;
}

std::string listed(const std::vector<fs::path>& dirs) {
  std::vector<std::string> names;
  for (const auto& dir : dirs) {
    names.push_back(dir.string());
  }
  return names.empty() ? std::string("none configured") : util::join(names, ", ");
}

Status check_path(const Context& c, const Catalogue& catalogue, const ImageUri& uri) {
  const fs::path path(uri.path);
  if (!path.is_absolute()) {
    return apply_policy(c, catalogue,
                        uri.text + ": a relative .sqsh path cannot be checked before the job; it "
                                   "is pinned by no lock that can be found");
  }
  const std::vector<fs::path> dirs = usable_sqsh_dirs(c);
  if (!folder_holding(dirs, path)) {
    return apply_policy(c, catalogue,
                        uri.text + ": a .sqsh outside the sqsh_dirs (" + listed(dirs) +
                            ") is pinned by no lock that can be checked");
  }
  const auto record = record_beside(path);
  std::optional<Pin> pin;
  if (record) {
    if (auto ref = oci::parse_image_ref(record->result.image_reference)) {
      pin = find_pin_by_manifest(catalogue, ref->name(), record->result.manifest_digest);
    }
  }
  if (!pin) {
    return apply_policy(
        c, catalogue,
        uri.text + ": " +
            (record ? "the image " + record->result.image_reference + " that " +
                          record->record.string() + " names"
                    : std::string("no squashfs-result.json beside it names it, so it")) +
            " is pinned by no lock");
  }
  ENVLOCK_TRY_ASSIGN(const Cache cache, Cache::open(c.config.cache, c.uid));
  ENVLOCK_TRY_ASSIGN(const Hashed hashed, verified_sha256(path, cache.stamp(path)));
  if (hashed.sha256 != record->result.sha256) {
    return check_failed(path.string() + ": sha256 " + hashed.sha256 + ", expected " +
                        record->result.sha256 + " (from " + record->record.string() + ")");
  }
  return {};
}

} // namespace

Status check(const Context& c, std::string_view text) {
  ENVLOCK_TRY_ASSIGN(const ImageUri uri, parse_image_uri(text));
  ENVLOCK_TRY_ASSIGN(const Catalogue catalogue, read_catalogue(c.config.locks));
  if (uri.kind == UriKind::sqsh_path) {
    return check_path(c, catalogue, uri);
  }
  ENVLOCK_TRY_ASSIGN(const std::optional<Pin> found, find_pin(catalogue, uri));
  if (found) {
    return {};
  }
  oci::ImageRef shown = uri.image;
  if (shown.tag.empty() && shown.digest.empty()) {
    shown.tag = "latest";
  }
  return apply_policy(c, catalogue, uri.text + ": " + shown.to_string() + " is pinned by no lock");
}

Result<GetOutcome> fill(const Context& c, std::string_view text) {
  if (c.config.shared_cache.empty()) {
    return env_error(c.config.file.string() + " names no shared_cache to fill");
  }
  ENVLOCK_TRY_ASSIGN(const ImageUri uri, parse_image_uri(text));
  if (uri.kind == UriKind::sqsh_path) {
    return input_error(uri.text + ": a .sqsh path is used where it is; nothing to fill");
  }
  ENVLOCK_TRY_ASSIGN(const Catalogue catalogue, read_catalogue(c.config.locks));
  ENVLOCK_TRY_ASSIGN(const std::optional<Pin> pin, find_pin(catalogue, uri));
  if (!pin) {
    return input_error(uri.text + ": pinned by no lock; nothing to check an import against, so "
                                  "nothing is put in the shared cache");
  }
  if (c.audit != nullptr) {
    c.audit->pin_role = pin->role;
    c.audit->pin_lock = pin->lock_path.string();
    c.audit->pin_lock_sha256 = pin->lock_sha256;
    c.audit->pin_digest = pin->image.digest;
    c.audit->pin_manifest_digest = pin->platform_digest;
  }
  ENVLOCK_TRY_ASSIGN(const Expectation expected, expectation_of(c, *pin));
  if (expected.distributed && util::path_exists(expected.distributed->sqsh)) {
    ENVLOCK_TRY_ASSIGN(const Cache cache, Cache::open(c.config.cache, c.uid));
    const fs::path sqsh = expected.distributed->sqsh;
    ENVLOCK_TRY_ASSIGN(const Hashed hashed, verified_sha256(sqsh, cache.stamp(sqsh)));
    if (hashed.sha256 == expected.sha256) {
      return GetOutcome{fs::absolute(sqsh), Source::distributed, hashed.sha256};
    }
    c.note("warning: corrupt pre-distributed image " + sqsh.string() + ": sha256 " + hashed.sha256 +
           ", expected " + expected.sha256 + " (from " + expected.source +
           "); filling the shared cache instead");
  }
  FillJob job;
  job.shared = c.config.shared_cache;
  job.key = cache_key(pin->platform_digest, pin->platform, pin->settings);
  job.pin = *pin;
  job.expected = expected;
  job.registry = c.config.registry;
  job.wait = std::chrono::seconds(c.config.lock_timeout_seconds);
  job.note = c.note;
  ENVLOCK_TRY_ASSIGN(const SharedHit hit, shared_fill(job));
  return GetOutcome{hit.sqsh, Source::shared, hit.sha256};
}

std::vector<std::string> scan(const Context& c) {
  std::vector<std::string> out;
  const SqshDirScan found = scan_sqsh_dirs(usable_sqsh_dirs(c));
  auto cache = Cache::open(c.config.cache, c.uid);
  if (!cache) {
    out.push_back(cache.error().message);
    return out;
  }
  for (const auto& item : found.records) {
    if (!util::path_exists(item.sqsh)) {
      continue;
    }
    auto hashed = verified_sha256(item.sqsh, cache->stamp(item.sqsh));
    if (!hashed) {
      out.push_back(hashed.error().message);
    } else if (hashed->sha256 != item.result.sha256) {
      out.push_back(item.sqsh.string() + ": sha256 " + hashed->sha256 + ", expected " +
                    item.result.sha256 + " (from " + item.record.string() + ")");
    }
  }
  return out;
}

} // namespace envlock::importer
