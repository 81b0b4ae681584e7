#include "build/build_result.hpp"

#include "util/json.hpp"

#include <array>
#include <ctime>

namespace envlock::build {

nlohmann::json to_json(const BuildResult& result) {
  return {{"schema", k_build_result_schema},
          {"image",
           {{"repository", result.repository},
            {"tag", result.tag},
            {"digest", result.digest},
            {"reference", result.repository + "@" + result.digest}}},
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

Status write_build_result(const std::filesystem::path& path, const BuildResult& result) {
  return util::write_json_file(path, to_json(result));
}

std::string rfc3339_utc(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  std::array<char, 32> text{};
  const std::size_t n = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &parts);
  return std::string(text.data(), n);
}

} // namespace envlock::build
