// build-result.json (envlock.build-result/v1): what `envlock build` built, from which inputs, with
// which builder. docs/formats/build-result.md describes every field; `envlock provenance` reads it.
#pragma once

#include "util/result.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace envlock::build {

inline constexpr const char* k_build_result_schema = "envlock.build-result/v1";

struct BuildResult {
  std::string repository; // the lock's image.repository
  std::string tag;        // the lock's image.tag
  std::string digest;     // sha256:..., the pushed manifest (or the local image id)
  bool pushed = false;
  std::string builder_name;
  std::string builder_version;
  std::string lock_sha256;
  std::string dockerfile_sha256;
  std::string context_sha256;
  std::map<std::string, std::string> build_args;
  std::int64_t source_date_epoch = 0;
  std::string log_path; // relative to the result file's folder
  std::string log_sha256;
  std::string started_at;  // RFC 3339 UTC, seconds
  std::string finished_at; // RFC 3339 UTC, seconds
};

// The result as its canonical JSON object.
nlohmann::json to_json(const BuildResult& result);

// Writes the result as canonical JSON, atomically. Fails with an environment error.
Status write_build_result(const std::filesystem::path& path, const BuildResult& result);

// `time` as "YYYY-MM-DDTHH:MM:SSZ" (UTC, whole seconds).
std::string rfc3339_utc(std::chrono::system_clock::time_point time);

} // namespace envlock::build
