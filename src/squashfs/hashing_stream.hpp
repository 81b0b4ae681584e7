// A blob file fed to libarchive through a read callback that hashes every byte on the way, so a
// layer is checked against its digest in the same pass that extracts it.
#pragma once

#include "squashfs/archive_reader.hpp"
#include "squashfs/dir_fd.hpp"
#include "squashfs/rootfs_builder.hpp"
#include "util/result.hpp"
#include "util/sha256.hpp"

#include <filesystem>
#include <memory>
#include <vector>

namespace envlock::squashfs {

class HashingStream {
public:
  // Opens `path`; fails with an environment error naming it.
  static Result<std::unique_ptr<HashingStream>> open(const std::filesystem::path& path,
                                                     ProgressFn progress);
  HashingStream(const HashingStream&) = delete;
  HashingStream& operator=(const HashingStream&) = delete;
  HashingStream(HashingStream&&) = delete;
  HashingStream& operator=(HashingStream&&) = delete;
  ~HashingStream() = default;

  // Makes `reader` read from this stream (archive_read_open); the stream must outlive it.
  Status attach(struct archive* reader);

  // Reads what the archive reader left unread and returns "sha256:<hex>" of the whole file.
  Result<std::string> finish_digest();

private:
  HashingStream(util::Fd fd, ProgressFn progress);
  static la_ssize_t read_callback(struct archive* a, void* self, const void** buffer);
  long read_more();

  util::Fd m_fd;
  ProgressFn m_progress;
  util::Sha256 m_hash;
  std::vector<char> m_buffer;
  std::uint64_t m_bytes = 0;
  int m_errno = 0;
};

} // namespace envlock::squashfs
