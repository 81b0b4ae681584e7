// The record beside each .sqsh in the importer's cache (NAME.sqsh.json, envlock.image-record/v1,
// docs/formats/image-record.md): which image it is (name, tag, the digest the lock pins and the
// manifest squashed), which lock pinned it, the .sqsh's sha256 and size, and what that sha256 was
// checked against. It is what a verification report needs to name the image a job ran:
// envlock-verify --sqsh reads it. Canonical JSON written atomically; it holds no time, so the
// same import gives the same bytes.
#pragma once

#include "formats/record.hpp"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace envlock::formats {

inline constexpr const char* k_image_record_schema = "envlock.image-record/v1";

struct ImageRecord {
  std::string name;            // registry/repository
  std::string tag;             // as the lock pins it (may be empty)
  std::string digest;          // what the lock pins (the index digest for a multi-platform image)
  std::string manifest_digest; // the platform manifest that was squashed
  std::string platform;
  std::string lock_path; // empty for an image no lock pins (policy warn)
  std::string lock_sha256;
  std::string pin;       // "base_image", "image", "recipe.images[LINE]" or "none"
  std::string sqsh_file; // the .sqsh's file name
  std::string sha256;    // of the .sqsh
  std::uint64_t size = 0;
  std::string tree_digest;
  std::string expected_from; // the record or provenance checked against; "first import"
  std::string squash_options;
  std::int64_t source_date_epoch = 0;
  bool operator==(const ImageRecord&) const = default;
};

nlohmann::json to_json(const ImageRecord& record);

// Reads a record; an input error names `origin` and the field.
template <>
Result<ImageRecord> from_json<ImageRecord>(const nlohmann::json& value, const std::string& origin);

Result<ImageRecord> read_image_record(const std::filesystem::path& path);
Status write_image_record(const std::filesystem::path& path, const ImageRecord& record);

// The record of the .sqsh at `sqsh`: NAME.sqsh.json beside it.
std::filesystem::path image_record_path_for(const std::filesystem::path& sqsh);

} // namespace envlock::formats
