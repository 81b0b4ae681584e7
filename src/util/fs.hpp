// Files: whole-file reads, atomic writes (temp file + fsync + rename) and temporary folders.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace envlock::util {

// Whether `path` exists; false too when it cannot be examined.
bool path_exists(const std::filesystem::path& path);

// Whether `path` is relative and stays inside its folder: not empty, not absolute, no ".." part.
bool is_relative_inside(const std::string& path);

// Returns the whole file, or an input error naming the path and the system's reason.
Result<std::string> read_file(const std::filesystem::path& path);

// Like read_file, but fails with "PATH: larger than LIMIT bytes" before reading a larger file.
Result<std::string> read_file_limited(const std::filesystem::path& path, std::uintmax_t limit);

// Writes `content` to a temporary file beside `path`, fsyncs it and renames it over `path`, so a
// reader sees the old file or the new one, never a torn one. `mode` applies to the new file.
Status write_file_atomic(const std::filesystem::path& path, std::string_view content,
                         unsigned mode = 0644);

// An output file that appears at its path only on commit(). Until then data goes to a temporary
// file in the same folder; the destructor removes that temporary file if commit() never ran.
class AtomicFile {
public:
  AtomicFile() = default;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  ~AtomicFile();

  // Opens the temporary file for `path`. Fails with an environment error.
  static Result<AtomicFile> open(const std::filesystem::path& path, unsigned mode = 0644);

  Status write(std::string_view data);
  // The descriptor of the temporary file, for writers that need one (libarchive, mksquashfs).
  [[nodiscard]] int fd() const { return m_fd; }
  [[nodiscard]] const std::filesystem::path& temp_path() const { return m_temp; }
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
  // fsync, close and rename over the destination.
  Status commit();

private:
  std::filesystem::path m_path;
  std::filesystem::path m_temp;
  int m_fd = -1;
  unsigned m_mode = 0644;
};

// A fresh folder under $TMPDIR (or /tmp), removed with its contents by the destructor.
class TempDir {
public:
  explicit TempDir(std::string_view prefix = "envlock");
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

private:
  std::filesystem::path m_path;
};

} // namespace envlock::util
