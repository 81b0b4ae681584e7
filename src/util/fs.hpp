// Files: whole-file reads, atomic writes (temp file + fsync + rename) and temporary folders.
#pragma once

#include "util/fd.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

namespace envlock::util {

// Whether `path` exists; false too when it cannot be examined.
bool path_exists(const std::filesystem::path& path);

// Whether `path` is relative and stays inside its folder: not empty, not absolute, no ".." part.
bool is_relative_inside(const std::string& path);

// Returns the whole file, or an input error naming the path and the system's reason.
Result<std::string> read_file(const std::filesystem::path& path);

// Like read_file, but fails with "PATH: larger than LIMIT bytes" before reading a larger file.
Result<std::string> read_file_limited(const std::filesystem::path& path, std::uintmax_t limit);

// What a file is, for messages: "a regular file", "a folder", "a symbolic link", "a FIFO", "a
// character device", "a block device", "a socket"; "not a file" for anything else.
std::string file_type_name(unsigned mode);

// Opens `path` (links followed) to read, when it is a regular file of at most `limit` bytes. A FIFO
// or a device is never opened, so that a link to /dev/zero or to a FIFO cannot hang the read.
// Input errors name `shown` (the path when empty): "SHOWN: is a FIFO, not a regular file" (a
// character device, a block device, a socket, a folder), "SHOWN: larger than LIMIT bytes", or
// "SHOWN: <the system's reason>".
Result<Fd> open_regular_file(const std::filesystem::path& path, std::uintmax_t limit = UINTMAX_MAX,
                             const std::string& shown = {});

// The whole of open_regular_file()'s file, read to its end: at most `limit` bytes even when the
// file grows while it is read.
Result<std::string> read_regular_file(const std::filesystem::path& path, std::uintmax_t limit,
                                      const std::string& shown = {});

// Where an output path given by a user goes. The rule for every file envlock writes:
// - "-" is standard output, and /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N are the
//   descriptors they name: written straight through;
// - a character device, a FIFO or a socket, or a symbolic link to one, is written straight
//   through, never replaced;
// - a symbolic link to a regular file (or to nothing yet) keeps its link: the file it points to is
//   replaced atomically;
// - a folder, or a link to one, is an input error ("PATH: is a directory").
struct OutputTarget {
  enum class Kind { file, stream };
  Kind kind = Kind::file;
  // file: the regular file to replace (a link's final target); stream: the path as given.
  std::filesystem::path path;
  // stream: a descriptor of this process to write to (1 for "-"), or -1 to open `path`.
  int inherited_fd = -1;
};
Result<OutputTarget> output_target(const std::filesystem::path& path);

// For an output envlock names itself (envlock.lock.json beside the manifest, handover.md, ...):
// the path must be absent or a regular file. A symbolic link there is not followed, since a link
// committed to a project could make envlock overwrite any file its user can write: "PATH: is a
// symbolic link (to TARGET); a default output is written only as a regular file: remove the link,
// or name the file with OPTION". A FIFO, a device or a folder is refused the same way.
Status check_default_output(const std::filesystem::path& path, std::string_view option);

// read_file_limited, with "-" meaning standard input.
Result<std::string> read_input(const std::filesystem::path& path, std::uintmax_t limit);

// Writes `content` to a temporary file beside `path`, fsyncs it and renames it over `path`, so a
// reader sees the old file or the new one, never a torn one. `mode` applies to the new file.
// `path` follows output_target(): "-", devices and FIFOs are written straight through.
Status write_file_atomic(const std::filesystem::path& path, std::string_view content,
                         unsigned mode = 0644);

// An output file that appears at its path only on commit(). Until then data goes to a temporary
// file in the same folder; the destructor removes that temporary file if commit() never ran.
// A stream target (output_target(): "-", a device, a FIFO) is written straight through instead.
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
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
  // Puts the data on disk (mode, fsync) without renaming, so that a full disk shows here, before
  // a file published with this one is renamed; commit() then only renames.
  Status sync();
  // fsync, close and rename over the destination.
  Status commit();

private:
  std::filesystem::path m_path;
  std::filesystem::path m_temp;
  int m_fd = -1;
  unsigned m_mode = 0644;
  bool m_stream = false;
  bool m_synced = false;
};

// A fresh folder, removed with its contents by the destructor (however the work in it ends, short
// of SIGKILL): the one way envlock makes a temporary folder.
class TempDir {
public:
  // Creates FOLDER/PREFIX.XXXXXX (mkdtemp, mode 0700); an environment error "cannot create a
  // temporary folder in FOLDER: REASON" (a full or read-only file system).
  static Result<TempDir> create_in(const std::filesystem::path& folder, std::string_view prefix);
  // The same under $TMPDIR (or /tmp).
  static Result<TempDir> create(std::string_view prefix = "envlock");
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  TempDir(TempDir&& other) noexcept : m_path(std::exchange(other.m_path, {})) {}
  TempDir& operator=(TempDir&& other) noexcept;
  ~TempDir();
  [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

private:
  TempDir() = default;
  std::filesystem::path m_path;
};

} // namespace envlock::util
