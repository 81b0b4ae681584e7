// build-result.json (envlock.build-result/v1, docs/formats/build-result.md): what `envlock build`
// built, from which inputs, with which builder. `envlock provenance`, `envlock squashfs`,
// `envlock rollback check`, `envlock handover` and the importer read it.
#pragma once

#include "formats/record.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::formats {

inline constexpr const char* k_build_result_schema = "envlock.build-result/v1";
inline constexpr const char* k_build_result_file = "build-result.json";

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

  // image.reference: REPOSITORY@DIGEST.
  [[nodiscard]] std::string reference() const { return repository + "@" + digest; }
  bool operator==(const BuildResult&) const = default;
};

// The result as its JSON object.
nlohmann::json to_json(const BuildResult& result);

// Reads a build result: every field, digests as sha256:<64 hex>, sha256s as 64 lowercase hex,
// image.reference as image.repository@image.digest. An input error names `origin` and the field
// ("build-result.json: image.digest: missing").
template <>
Result<BuildResult> from_json<BuildResult>(const nlohmann::json& value, const std::string& origin);

Result<BuildResult> read_build_result(const std::filesystem::path& path);

// Writes the result as canonical JSON, atomically. Fails with an environment error.
Status write_build_result(const std::filesystem::path& path, const BuildResult& result);

// The build results that may describe the lock at `lock_path`, most specific last:
// build-result.json beside it, then NAME.build-result.json for NAME.lock.json. Whether one
// exists, and whether it was built from that lock (lock_sha256), is the caller's to check.
std::vector<std::filesystem::path> build_result_candidates(const std::filesystem::path& lock_path);

} // namespace envlock::formats
