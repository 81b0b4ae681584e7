#include "importer/enforce.hpp"

#include "importer/cache.hpp"
#include "importer/expected.hpp"
#include "importer/image_uri.hpp"
#include "importer/pins.hpp"
#include "importer/shared_cache.hpp"
#include "importer/stamp.hpp"
#include "importer/trusted_path.hpp"
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

// Root's own cache, where root's steps keep their verified stamps; nothing (said) when it is not
// root's (a user made CACHE/0 first): every .sqsh is then read whole.
std::optional<Cache> stamp_cache(const Context& c) {
  auto cache = Cache::open(c.config.cache, c.uid);
  if (!cache) {
    c.note("warning: " + cache.error().message + "; no stamps are used: every .sqsh is read whole");
    return std::nullopt;
  }
  return std::move(*cache);
}

// Whose word a stamp of the caller's own cache is: root's for root's steps.
Checked checked_by(const Context& c, const Hashed& hashed) {
  if (!hashed.from_stamp) {
    return Checked::hashed;
  }
  return c.uid == 0 ? Checked::root_stamp : Checked::caller_stamp;
}

fs::path stamp_of(const std::optional<Cache>& cache, const fs::path& file) {
  return cache ? cache->stamp(file) : fs::path();
}

Status check_path(const Context& c, const Catalogue& catalogue, const ImageUri& uri) {
  const fs::path path(uri.path);
  if (!path.is_absolute()) {
    return apply_policy(c, catalogue,
                        uri.text + ": a relative .sqsh path cannot be checked before the job; it "
                                   "is pinned by no lock that can be found");
  }
  // Pyxis opens the path itself, after the check: only a path no one but root can change is the
  // same file then as now.
  if (c.config.trust == Trust::system) {
    if (auto problem = untrusted_because(path)) {
      return apply_policy(c, catalogue,
                          uri.text + ": not a path only root can change (" + *problem +
                              "), so the file Pyxis opens after this check could be another; it "
                              "is pinned by no lock that can be checked");
    }
  }
  const std::vector<fs::path> dirs = usable_sqsh_dirs(c);
  if (!folder_holding(dirs, path)) {
    return apply_policy(c, catalogue,
                        uri.text + ": a .sqsh outside the sqsh_dirs (" + listed(dirs) +
                            ") is pinned by no lock that can be checked");
  }
  auto record = record_beside(path);
  if (record && c.config.trust == Trust::system) {
    if (auto problem = untrusted_because(record->record)) {
      c.note("warning: " + *problem + "; record ignored: a user could have planted it");
      record.reset();
    }
  }
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
  note_pin(c, *pin);
  const auto cache = stamp_cache(c);
  ENVLOCK_TRY_ASSIGN(const Hashed hashed, verified_sha256(path, stamp_of(cache, path)));
  if (c.audit != nullptr) {
    c.audit->sqsh_path = path.string();
    c.audit->sqsh_sha256 = hashed.sha256;
    c.audit->sqsh_source = to_string(Source::path);
    c.audit->sqsh_checked = to_string(checked_by(c, hashed));
  }
  if (hashed.sha256 != record->result.sha256) {
    return check_failed(path.string() + ": sha256 " + hashed.sha256 + ", expected " +
                        record->result.sha256 + " (from " + record->record.string() + ")");
  }
  return {};
}

// Pyxis runs an existing container of a --container-name as it is, without importing (nor
// calling the importer): what it holds is whatever its user put in it (enroot create from any
// .sqsh). Only NAME:create makes it anew from the job's image, failing when it exists.
Status check_container_name(const Context& c, const Catalogue& catalogue,
                            const std::string& container, std::string_view image) {
  const auto colon = container.rfind(':');
  const std::string name = colon == std::string::npos ? container : container.substr(0, colon);
  const std::string flag = colon == std::string::npos ? "auto" : container.substr(colon + 1);
  if (image.empty()) {
    return apply_policy(c, catalogue,
                        "--container-name=" + container +
                            " without --container-image: the container " + name +
                            " holds whatever its user put in it (enroot create), which no lock "
                            "pins and nothing can check");
  }
  if (flag != "create") {
    return apply_policy(c, catalogue,
                        "--container-name=" + container + ": an existing container " + name +
                            " is run as it is instead of " + std::string(image) +
                            " (Pyxis skips the import), and what it holds no lock pins and "
                            "nothing can check; use --container-name=" +
                            name + ":create");
  }
  return {};
}

} // namespace

Result<Catalogue> read_pins(const Context& c) {
  ENVLOCK_TRY_ASSIGN(Catalogue catalogue, read_catalogue(c.config.locks, c.config.trust));
  for (const auto& warning : catalogue.warnings) {
    c.note("warning: " + warning);
  }
  return catalogue;
}

Status check(const Context& c, std::string_view text, const std::string& container) {
  if (text.empty() && container.empty()) {
    return input_error("check: an image URI or --container-name is required");
  }
  ENVLOCK_TRY_ASSIGN(const Catalogue catalogue, read_pins(c));
  if (!container.empty()) {
    ENVLOCK_TRY(check_container_name(c, catalogue, container, text));
    if (text.empty()) {
      return {};
    }
  }
  ENVLOCK_TRY_ASSIGN(const ImageUri uri, parse_image_uri(text));
  if (uri.kind == UriKind::sqsh_path) {
    return check_path(c, catalogue, uri);
  }
  ENVLOCK_TRY_ASSIGN(const std::optional<Pin> found, find_pin(catalogue, uri));
  if (found) {
    note_pin(c, *found);
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
  ENVLOCK_TRY_ASSIGN(const Catalogue catalogue, read_pins(c));
  ENVLOCK_TRY_ASSIGN(const std::optional<Pin> pin, find_pin(catalogue, uri));
  if (!pin) {
    return input_error(uri.text + ": pinned by no lock; nothing to check an import against, so "
                                  "nothing is put in the shared cache");
  }
  note_pin(c, *pin);
  ENVLOCK_TRY_ASSIGN(const Expectation expected, expectation_of(c, *pin));
  if (expected.distributed && util::path_exists(expected.distributed->sqsh)) {
    const auto cache = stamp_cache(c);
    const fs::path sqsh = expected.distributed->sqsh;
    ENVLOCK_TRY_ASSIGN(const Hashed hashed, verified_sha256(sqsh, stamp_of(cache, sqsh)));
    if (hashed.sha256 == expected.sha256) {
      return GetOutcome{fs::absolute(sqsh), Source::distributed, hashed.sha256,
                        checked_by(c, hashed)};
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
  return GetOutcome{hit.sqsh, hit.imported ? Source::imported : Source::shared, hit.sha256,
                    hit.checked};
}

std::vector<std::string> scan(const Context& c) {
  std::vector<std::string> out;
  if (!c.config.shared_cache.empty()) {
    for (const auto& stale : remove_stale_fills(c.config.shared_cache)) {
      c.note("removed " + stale.string() + " (left by a fill that died)");
    }
  }
  const SqshDirScan found = scan_usable_sqsh_dirs(c);
  const auto cache = stamp_cache(c);
  for (const auto& item : found.records) {
    if (!util::path_exists(item.sqsh)) {
      continue;
    }
    auto hashed = verified_sha256(item.sqsh, stamp_of(cache, item.sqsh));
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
