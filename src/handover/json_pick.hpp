// Reading fields of records whose exact shape envlock does not own (build results, provenance),
// defensively: a dotted path ("subject.0.digest.sha256") that may or may not be there.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::handover {

// The value at `path` (object keys and array indices separated by '.'), or nothing.
const nlohmann::json* json_at(const nlohmann::json& value, const std::string& path);

// The first of `paths` that holds a non-empty string or a number, as text, with the path used.
std::optional<std::pair<std::string, std::string>> pick_text(const nlohmann::json& value,
                                                             const std::vector<std::string>& paths);

} // namespace envlock::handover
