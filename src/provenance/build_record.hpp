// The build result provenance describes (formats/build_result.hpp, the record `envlock build`
// writes), and which file it came from: the statement names the file by the sha256 of its bytes.
#pragma once

#include "formats/build_result.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace envlock::provenance {

// build-result.json as `envlock build` writes it, and which file it came from.
struct BuildRecord : formats::BuildResult {
  std::string file_name;   // the result file's name, no folder
  std::string file_sha256; // sha256 of the result file's bytes: identifies the build run
};

// Reads build-result.json text (formats::from_json<BuildResult>). An input error (exit 2) names
// `origin` and the field: "build-result.json: image.digest: missing", "...: must be
// sha256:<64 hex>, not 'x'", or another schema.
Result<BuildRecord> parse_build_record(std::string_view text, const std::string& origin);

// Reads the file (limit: 1 MiB); BuildRecord::file_name is its file name.
Result<BuildRecord> read_build_record(const std::filesystem::path& path);

} // namespace envlock::provenance
