#include "util/json.hpp"

#include "util/fs.hpp"

#include <algorithm>
#include <optional>

namespace envlock::util {

std::string canonical_json(const nlohmann::json& value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::strict) + "\n";
}

namespace {

// "ORIGIN:LINE:COL: " for the byte at `offset`.
std::string position(std::string_view text, std::string_view origin, std::size_t offset) {
  std::size_t line = 1;
  std::size_t col = 1;
  for (std::size_t i = 0; i < std::min(offset, text.size()); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return std::string(origin) + ":" + std::to_string(line) + ":" + std::to_string(col) + ": ";
}

// The offset of the first bracket nested deeper than k_max_json_depth, outside strings.
std::optional<std::size_t> too_deep_at(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > k_max_json_depth) {
        return i;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

} // namespace

Result<nlohmann::json> parse_json(std::string_view text, std::string_view origin) {
  if (const auto at = too_deep_at(text)) {
    return input_error(position(text, origin, *at) + "invalid JSON: nested deeper than " +
                       std::to_string(k_max_json_depth) + " levels");
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string what = e.what();
    const std::size_t pos = what.find("; ");
    if (pos != std::string::npos) {
      what = what.substr(pos + 2);
    }
    return input_error(position(text, origin, e.byte == 0 ? 0 : e.byte - 1) +
                       "invalid JSON: " + what);
  } catch (const nlohmann::json::out_of_range&) {
    // Thrown for a number beyond what a double holds ("1e999"); it carries no position.
    return input_error(std::string(origin) + ": invalid JSON: a number out of range");
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
