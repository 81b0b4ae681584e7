// Writing one tar archive in envlock's reproducible form: POSIX pax in libarchive's "restricted"
// mode (plain ustar headers; a pax extended header only for a path or link target that ustar
// cannot hold), uid and gid 0, no user or group names, the mtime given, nothing else recorded.
// libarchive's header stays in tar_writer.cpp.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace envlock::build {

// Receives the archive's bytes in order; an error stops the archive.
using ByteSink = std::function<Status(std::string_view)>;

class TarWriter {
public:
  TarWriter(TarWriter&&) noexcept;
  TarWriter& operator=(TarWriter&&) noexcept;
  TarWriter(const TarWriter&) = delete;
  TarWriter& operator=(const TarWriter&) = delete;
  ~TarWriter();

  // A writer that hands every byte to `sink`, with every entry's mtime set to `mtime`. Fails with
  // an environment error when libarchive cannot set one up.
  static Result<TarWriter> open(ByteSink sink, std::int64_t mtime);

  // Adds a folder (`path` without a trailing slash), mode 0755.
  Status add_directory(const std::string& path);
  // Adds a regular file of `size` bytes whose bytes come from `fill`, which must write exactly
  // `size` bytes through the writer it is given. Fails with an environment error (libarchive's
  // message, or "PATH: wrote N of SIZE bytes").
  Status add_file(const std::string& path, unsigned mode, std::uint64_t size,
                  const std::function<Status(const ByteSink&)>& fill);
  // Adds a regular file holding `data`.
  Status add_file(const std::string& path, unsigned mode, std::string_view data);
  // Adds a symbolic link to `target` (mode 0777, as git archive writes links).
  Status add_symlink(const std::string& path, const std::string& target);
  // Writes the end-of-archive blocks and flushes. Must be called once, last.
  Status finish();

private:
  struct State;
  explicit TarWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

} // namespace envlock::build
