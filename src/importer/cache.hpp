// The importer's cache on a node: CACHE/UID/, one per user, because Pyxis runs the importer as
// the job's user and one user must not be able to replace another's images. Inside:
//   images/KEY.sqsh, images/KEY.sqsh.json   an image and its record (formats/image_record.hpp)
//   locks/KEY.lock                           the flock concurrent gets of KEY take
//   stamps/HASH.json                         verified stamps (stamp.hpp)
//   holds/JOB.STEP.KEY                       a job step using KEY, from get to release
//   tmp/KEY.PID.XXXXXX/                      an import in progress (removed by the next one)
//   quarantine/KEY.sqsh[.json]               the last image of KEY that failed its check
// KEY names the image manifest and the Enroot settings: sha256-MANIFEST_HEX-SETTINGS12.
#pragma once

#include "squashfs/mksquashfs.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <sys/types.h>

namespace envlock::importer {

class Cache {
public:
  // Opens (creating, mode 0700) ROOT/UID and its folders. An environment error when ROOT is
  // missing or a folder cannot be made, or when ROOT/UID is not owned by `uid` or is writable by
  // anyone else (another user may have planted it).
  static Result<Cache> open(const std::filesystem::path& root, uid_t uid);

  [[nodiscard]] const std::filesystem::path& dir() const { return m_dir; }
  [[nodiscard]] std::filesystem::path image(const std::string& key) const;
  [[nodiscard]] std::filesystem::path record(const std::string& key) const;
  [[nodiscard]] std::filesystem::path lock(const std::string& key) const;
  [[nodiscard]] std::filesystem::path quarantine(const std::string& key) const;
  // The stamp of any file (cached or pre-distributed), named by its absolute path.
  [[nodiscard]] std::filesystem::path stamp(const std::filesystem::path& file) const;
  [[nodiscard]] std::filesystem::path holds() const { return m_dir / "holds"; }
  [[nodiscard]] std::filesystem::path tmp() const { return m_dir / "tmp"; }
  [[nodiscard]] std::filesystem::path images() const { return m_dir / "images"; }

private:
  explicit Cache(std::filesystem::path dir) : m_dir(std::move(dir)) {}
  std::filesystem::path m_dir;
};

// The cache key of an image manifest squashed with `settings`.
std::string cache_key(const std::string& manifest_digest, const std::string& platform,
                      const squashfs::SquashSettings& settings);

// Moves a cached image and its record to quarantine/ (replacing the previous ones of that key)
// and drops its stamp. Returns the quarantined .sqsh's path.
Result<std::filesystem::path> quarantine_image(const Cache& cache, const std::string& key,
                                               const std::filesystem::path& sqsh);

// Removes the import folders tmp/KEY.* left by imports that died (call with KEY's lock held),
// and tmp/*.PID.* of processes that no longer exist.
void remove_stale_imports(const Cache& cache, const std::string& key);

// Marks the image of `key` as used now (its record's mtime), for least-recently-used eviction.
void touch_used(const Cache& cache, const std::string& key);

} // namespace envlock::importer
