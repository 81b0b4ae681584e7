// RECORD files (the list of installed files of a Python distribution, with hashes): parsing, and
// checking every listed file against its hash in parallel.
#pragma once

#include "util/fd.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::verify {

struct RecordEntry {
  std::string path;   // relative to the site-packages folder (may start with "../")
  std::string sha256; // urlsafe base64 without padding; empty when RECORD gives no hash
  std::int64_t size = -1;
};

// Parses RECORD's CSV lines "path,sha256=<b64>,size" (paths may be quoted with '"'). Entries with
// another hash algorithm keep an empty sha256.
std::vector<RecordEntry> parse_record(std::string_view text);

// The urlsafe base64 form, without padding, of bytes (RECORD's hash encoding).
std::string urlsafe_b64_nopad(const std::uint8_t* data, std::size_t size);

// What one RECORD may claim (docs/manual/limits.md): a larger one is not checked, and the check
// names it and the limit.
inline constexpr std::uintmax_t k_record_max_bytes = std::uintmax_t{16} << 20;
inline constexpr std::size_t k_record_max_lines = 200000;
// The files a report lists by name in details.mismatches; the rest are counted.
inline constexpr std::size_t k_record_listed_mismatches = 1000;

// The sha256 of a regular file in RECORD's encoding; an input error names an unreadable file
// or one that is no regular file.
Result<std::string> record_hash_file(const std::filesystem::path& path);
// The sha256 of what is left to read from `fd` in RECORD's encoding; errors name `shown`.
Result<std::string> record_hash_fd(int fd, const std::string& shown);

struct RecordFile {
  std::filesystem::path path; // host path
  std::string shown;          // for messages: "<dist-info name>: <RECORD path>"
  std::string sha256;         // expected, RECORD's encoding
};

struct RecordMismatch {
  std::string shown;
  // "hash differs", "missing", or what else the opener said ("is a FIFO, not a regular file").
  std::string problem;
};

struct RecordCheck {
  std::size_t files = 0;
  std::uintmax_t bytes = 0;
  std::vector<RecordMismatch> mismatches; // sorted by `shown`
};

// Opens a listed file for reading, a regular file only. An error's message is the problem a
// mismatch shows: "missing", "is a FIFO, not a regular file".
using RecordOpener = std::function<Result<util::Fd>(const std::filesystem::path& path)>;

// Hashes every file on a pool of threads (one file per task) and lists those that differ or
// cannot be read. `open` opens each (the run context's, inside the root).
RecordCheck check_record_files(const std::vector<RecordFile>& files, const RecordOpener& open);

} // namespace envlock::verify
