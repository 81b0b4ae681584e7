#include "util/json.hpp"

#include "util/fs.hpp"

namespace envlock::util {

std::string canonical_json(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::strict) + "\n";
}

Result<nlohmann::json> parse_json(std::string_view text, std::string_view origin) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // Turn the byte offset into line:column.
    std::size_t line = 1;
    std::size_t col = 1;
    const std::size_t end = std::min<std::size_t>(e.byte == 0 ? 0 : e.byte - 1, text.size());
    for (std::size_t i = 0; i < end; ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    std::string what = e.what();
    const std::size_t pos = what.find("; ");
    if (pos != std::string::npos) {
      what = what.substr(pos + 2);
    }
    return input_error(std::string(origin) + ":" + std::to_string(line) + ":" +
                       std::to_string(col) + ": invalid JSON: " + what);
  }
}

Result<nlohmann::json> read_json_file(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const std::string text, read_file_limited(path, std::uintmax_t{64} << 20));
  return parse_json(text, path.string());
}

Status write_json_file(const std::filesystem::path& path, const nlohmann::json& value) {
  return write_file_atomic(path, canonical_json(value));
}

} // namespace envlock::util
