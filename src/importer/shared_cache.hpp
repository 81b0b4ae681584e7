// The node's shared cache: one verified .sqsh per image for all users, filled by root (the
// prolog, before the job, or `envlock importer fill`, which `envlock fleet distribute
// --shared-cache` runs on every node) and read by every user's get. Layout of SHARED (root, 0755):
//   sqsh/HEX.sqsh      the image, named by its sha256, root-owned, mode 0444
//   records/KEY.json   the image record of the cache key (record.hpp), naming sqsh/HEX.sqsh
//   stamps/HEX.json    root's verified stamp of sqsh/HEX.sqsh (stamp.hpp), mode 0644
//   locks/KEY.lock     the flock a fill holds (root's, 0600: no one else can hold it)
//   tmp/KEY.PID.XXXXXX a fill in progress (root, 0700), flocked by its fill while it runs
// Why a user cannot plant or swap a file (docs/manual/importer.md): SHARED and every folder above
// it are root's and writable by no one else, so only root creates, renames or removes entries; the
// files are root's and read-only; a get opens each file without following a link, checks its
// owner, type and mode on the open descriptor, and trusts root's stamp only while the file's
// device, inode, size, mtime and ctime are those root hashed. Anything else is not used.
#pragma once

#include "formats/image_record.hpp"
#include "importer/cache.hpp"
#include "importer/expected.hpp"
#include "importer/pins.hpp"
#include "importer/stamp.hpp"
#include "oci/registry.hpp"
#include "util/result.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace envlock::importer {

struct SharedHit {
  std::filesystem::path sqsh; // SHARED/sqsh/HEX.sqsh
  std::string sha256;
  Checked checked = Checked::hashed; // root's stamp, the caller's own stamp, or read whole
  bool imported = false;             // true: this fill imported it (else it was there already)
};

// What a lookup found: the image, or nothing (`problem` empty: not there; else why the entry
// there cannot be used, for the audit log).
struct SharedLookup {
  std::optional<SharedHit> hit;
  std::string problem;
};

// Looks up the image of `key` in SHARED for a get running as anyone. `expected_sha256` (may be
// empty) is what the records or provenance say. `own` (may be null) is the caller's cache, where
// it keeps its own stamp of a shared file whose identity root's stamp no longer matches. A fill in
// progress is waited for up to `wait` by root (only root can open a fill's lock), saying so through
// `note` (may be empty). Never an error: a shared cache that cannot be used is a `problem`.
SharedLookup shared_lookup(const std::filesystem::path& shared, const std::string& key,
                           const std::string& expected_sha256, const Cache* own,
                           std::chrono::seconds wait,
                           const std::function<void(const std::string&)>& note);

// As root: removes the staging folders in SHARED/tmp whose fill is gone (no process holds their
// flock); returns them. Nothing when not root or SHARED/tmp is not trusted.
std::vector<std::filesystem::path> remove_stale_fills(const std::filesystem::path& shared);

struct FillJob {
  std::filesystem::path shared;
  std::string key;
  Pin pin;
  Expectation expected;
  oci::RegistryOptions registry;
  std::chrono::seconds wait{600};
  std::function<void(const std::string&)> note;
};

// As root: makes sure SHARED holds the verified image of the job's key, importing it (`envlock
// squashfs`) when it does not. A check failure (exit 1) when the import's sha256 differs from the
// expected one; an environment error when not root or SHARED cannot be made safe.
Result<SharedHit> shared_fill(const FillJob& job);

} // namespace envlock::importer
