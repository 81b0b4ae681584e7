// Verified stamps: how a cached get avoids hashing a multi-GB .sqsh on every job. After a full
// sha256 of a file, envlock writes a stamp holding that sha256 and the file's identity as stat(2)
// gives it: device, inode, size, mtime and ctime in nanoseconds. A later get stats the file
// (microseconds) and trusts the stamp only while all five are unchanged. Any write to the file
// changes its mtime and ctime, and ctime cannot be set back from user space (touch -d sets mtime
// only), so a modified file is hashed again; a replaced file has another inode. What a stamp does
// not catch is a change below the file system (a disk flipping bits, a write to the block device),
// which only a full hash finds: `envlock squashfs verify` does one on demand.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <sys/stat.h>

namespace envlock::importer {

struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

// The identity stat(2) or fstat(2) gave.
FileIdentity identity_of(const struct stat& st);

// The identity of the file at `path`; an environment error when it cannot be stat'ed (an input
// error when it does not exist or is not a regular file).
Result<FileIdentity> identify(const std::filesystem::path& path);

// How a .sqsh's sha256 came to be known (the audit line's sqsh.checked).
enum class Checked {
  hashed,      // the whole file was read now (or written by this very import)
  root_stamp,  // root's verified stamp of a root-owned file whose identity is unchanged
  caller_stamp // a stamp in the caller's own cache: the caller's word, not rehashed
};

// "hashed", "root stamp" or "caller stamp".
const char* to_string(Checked checked);

struct Hashed {
  std::string sha256; // 64 hex
  std::uint64_t size = 0;
  bool from_stamp = false; // true: the stamp vouched for it, nothing was read
};

// The sha256 of the file at `path`: from the stamp at `stamp` when the file's identity is the one
// the stamp records, else by reading the whole file, after which the stamp is written again
// (atomically); an empty `stamp` means none (the file is always read). An environment error when
// the file changes while it is hashed.
Result<Hashed> verified_sha256(const std::filesystem::path& path,
                               const std::filesystem::path& stamp);

// The sha256 the stamp at `stamp` vouches for, when it is a stamp of `path` with identity `id`.
std::optional<std::string> stamped_sha256(const std::filesystem::path& stamp,
                                          const std::filesystem::path& path,
                                          const FileIdentity& id);

// Writes the stamp of `path` with identity `id` and sha256 `sha256` (atomically, with `mode`).
Status write_stamp_of(const std::filesystem::path& stamp, const std::filesystem::path& path,
                      const FileIdentity& id, const std::string& sha256, unsigned mode = 0600);

// Writes the stamp of a file whose sha256 is known (just computed by whoever wrote it).
Status write_stamp(const std::filesystem::path& stamp, const std::filesystem::path& path,
                   const std::string& sha256);

} // namespace envlock::importer
