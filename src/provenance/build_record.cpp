#include "provenance/build_record.hpp"

#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

namespace envlock::provenance {

Result<BuildRecord> parse_build_record(std::string_view text, const std::string& origin) {
  ENVLOCK_TRY_ASSIGN(const nlohmann::json root, util::parse_json(text, origin));
  ENVLOCK_TRY_ASSIGN(formats::BuildResult result,
                     formats::from_json<formats::BuildResult>(root, origin));
  BuildRecord record;
  static_cast<formats::BuildResult&>(record) = std::move(result);
  record.file_sha256 = util::sha256_hex(text);
  return record;
}

Result<BuildRecord> read_build_record(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const std::string text,
                     util::read_file_limited(path, std::uintmax_t{1} << 20));
  ENVLOCK_TRY_ASSIGN(BuildRecord record, parse_build_record(text, path.string()));
  record.file_name = path.filename().string();
  return record;
}

} // namespace envlock::provenance
