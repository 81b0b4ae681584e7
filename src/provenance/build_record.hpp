// What provenance needs from build-result.json (docs/formats/build-result.md), the record that
// `envlock build` writes: the image it made, the inputs' digests, the builder, the log and times.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace envlock::provenance {

inline constexpr const char* k_build_result_schema = "envlock.build-result/v1";

struct BuildRecord {
  std::string file_name;   // the result file's name, no folder
  std::string file_sha256; // sha256 of the result file's bytes: identifies the build run
  std::string repository;  // image.repository
  std::string tag;         // image.tag
  std::string digest;      // image.digest, "sha256:" + 64 hex
  bool pushed = false;
  std::string builder_name;    // buildah, podman, docker
  std::string builder_version; // as the builder reports it
  std::string lock_sha256;
  std::string dockerfile_sha256;
  std::string context_sha256;
  std::map<std::string, std::string> build_args;
  std::int64_t source_date_epoch = 0;
  std::string log_path; // relative to the result file's folder
  std::string log_sha256;
  std::string started_at; // RFC 3339, UTC
  std::string finished_at;
};

// Reads build-result.json text. An input error (exit 2) names `origin` and the field:
// "build-result.json: image.digest: missing", "...: must be sha256:<64 hex>", or another schema.
Result<BuildRecord> parse_build_record(std::string_view text, const std::string& origin);

// Reads the file (limit: 1 MiB); BuildRecord::file_name is its file name.
Result<BuildRecord> read_build_record(const std::filesystem::path& path);

} // namespace envlock::provenance
