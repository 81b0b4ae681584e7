// Canonical JSON: the one byte form envlock writes for every JSON file (sorted keys, 2-space
// indent, UTF-8 as is, a trailing newline), so the same data always gives the same bytes.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace envlock::util {

// nlohmann::json keeps object keys sorted, so dump(2) is canonical; this adds the newline.
std::string canonical_json(const nlohmann::json& value);

// The deepest nesting of arrays and objects envlock reads. Deeper documents are refused before
// parsing, since printing or comparing them would recurse that deep.
inline constexpr std::size_t k_max_json_depth = 64;

// Parses JSON text; an input error names `origin` with line and column of the fault, e.g.
// "report.json:1:65: invalid JSON: nested deeper than 64 levels".
Result<nlohmann::json> parse_json(std::string_view text, std::string_view origin);

// Reads and parses a JSON file (limit: 64 MiB).
Result<nlohmann::json> read_json_file(const std::filesystem::path& path);

// Writes canonical JSON atomically.
Status write_json_file(const std::filesystem::path& path, const nlohmann::json& value);

} // namespace envlock::util
