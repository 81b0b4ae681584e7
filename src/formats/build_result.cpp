#include "formats/build_result.hpp"

namespace envlock::formats {

using nlohmann::json;
using util::FieldReader;

json to_json(const BuildResult& result) {
  return {{"schema", k_build_result_schema},
          {"image",
           {{"repository", result.repository},
            {"tag", result.tag},
            {"digest", result.digest},
            {"reference", result.reference()}}},
          {"pushed", result.pushed},
          {"builder", {{"name", result.builder_name}, {"version", result.builder_version}}},
          {"lock_sha256", result.lock_sha256},
          {"dockerfile_sha256", result.dockerfile_sha256},
          {"context_sha256", result.context_sha256},
          {"build_args", result.build_args},
          {"source_date_epoch", result.source_date_epoch},
          {"log", {{"path", result.log_path}, {"sha256", result.log_sha256}}},
          {"started_at", result.started_at},
          {"finished_at", result.finished_at}};
}

template <>
Result<BuildResult> from_json<BuildResult>(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the build result");
  read_schema(r, k_build_result_schema);
  BuildResult b;
  FieldReader image = r.sub("image");
  b.repository = image.str("repository");
  b.tag = image.str("tag");
  b.digest = image.str("digest");
  check_digest(image, "digest", b.digest);
  const std::string reference = image.str("reference");
  if (!image.error() && reference != b.reference()) {
    image.fail(image.join("reference"),
               "'" + reference + "' is not " + b.reference() + " (image.repository@image.digest)");
  }
  r.merge(image);
  b.pushed = r.boolean("pushed");
  FieldReader builder = r.sub("builder");
  b.builder_name = builder.str("name");
  b.builder_version = builder.str("version");
  r.merge(builder);
  b.lock_sha256 = r.str("lock_sha256");
  check_sha256(r, "lock_sha256", b.lock_sha256);
  b.dockerfile_sha256 = r.str("dockerfile_sha256");
  check_sha256(r, "dockerfile_sha256", b.dockerfile_sha256);
  b.context_sha256 = r.str("context_sha256");
  check_sha256(r, "context_sha256", b.context_sha256);
  b.build_args = r.string_map("build_args");
  b.source_date_epoch = r.integer("source_date_epoch");
  FieldReader log = r.sub("log");
  b.log_path = log.str("path");
  b.log_sha256 = log.str("sha256");
  check_sha256(log, "sha256", b.log_sha256);
  r.merge(log);
  b.started_at = r.str("started_at");
  b.finished_at = r.str("finished_at");
  ENVLOCK_TRY(r.status());
  return b;
}

Result<BuildResult> read_build_result(const std::filesystem::path& path) {
  return read_record<BuildResult>(path);
}

Status write_build_result(const std::filesystem::path& path, const BuildResult& result) {
  return util::write_json_file(path, to_json(result));
}

std::vector<std::filesystem::path> build_result_candidates(const std::filesystem::path& lock_path) {
  constexpr std::string_view suffix = ".lock.json";
  std::vector<std::filesystem::path> out = {lock_path.parent_path() / k_build_result_file};
  const std::string name = lock_path.filename().string();
  if (name.ends_with(suffix) && name.size() > suffix.size()) {
    out.push_back(lock_path.parent_path() /
                  (name.substr(0, name.size() - suffix.size()) + "." + k_build_result_file));
  }
  return out;
}

} // namespace envlock::formats
