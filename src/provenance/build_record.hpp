// What provenance needs from build-result.json (docs/formats/build-result.md), the record that
// `envlock build` writes: the image it made, the inputs' digests, the builder, the log and times.
#pragma once

#include "build/build_result.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>

namespace envlock::provenance {

// build-result.json as `envlock build` writes it (build::BuildResult), and which file it came from.
struct BuildRecord : build::BuildResult {
  std::string file_name;   // the result file's name, no folder
  std::string file_sha256; // sha256 of the result file's bytes: identifies the build run
};

// Reads build-result.json text. An input error (exit 2) names `origin` and the field:
// "build-result.json: image.digest: missing", "...: must be sha256:<64 hex>", or another schema.
Result<BuildRecord> parse_build_record(std::string_view text, const std::string& origin);

// Reads the file (limit: 1 MiB); BuildRecord::file_name is its file name.
Result<BuildRecord> read_build_record(const std::filesystem::path& path);

} // namespace envlock::provenance
