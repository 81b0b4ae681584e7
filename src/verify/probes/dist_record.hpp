// RECORD files (the list of installed files of a Python distribution, with hashes): parsing, and
// checking every listed file against its hash in parallel.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
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

// The sha256 of a file in RECORD's encoding; an input error names an unreadable file.
Result<std::string> record_hash_file(const std::filesystem::path& path);

struct RecordFile {
  std::filesystem::path path; // host path
  std::string shown;          // for messages: "<dist-info name>: <RECORD path>"
  std::string sha256;         // expected, RECORD's encoding
};

struct RecordMismatch {
  std::string shown;
  std::string problem; // "hash differs" or "missing"
};

struct RecordCheck {
  std::size_t files = 0;
  std::uintmax_t bytes = 0;
  std::vector<RecordMismatch> mismatches; // sorted by `shown`
};

// Hashes every file on a pool of threads (one file per task) and lists those that differ or
// are missing.
RecordCheck check_record_files(const std::vector<RecordFile>& files);

} // namespace envlock::verify
