#include "handover/json_pick.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <cctype>

namespace envlock::handover {

const nlohmann::json* json_at(const nlohmann::json& value, const std::string& path) {
  const nlohmann::json* at = &value;
  for (const auto& part : util::split(path, '.')) {
    if (at->is_object()) {
      const auto it = at->find(part);
      if (it == at->end()) {
        return nullptr;
      }
      at = &*it;
    } else if (at->is_array() && !part.empty() && part.size() < 6 &&
               std::all_of(part.begin(), part.end(), ::isdigit)) {
      const auto index = static_cast<std::size_t>(std::stoul(part));
      if (index >= at->size()) {
        return nullptr;
      }
      at = &(*at)[index];
    } else {
      return nullptr;
    }
  }
  return at;
}

std::optional<std::pair<std::string, std::string>>
pick_text(const nlohmann::json& value, const std::vector<std::string>& paths) {
  for (const auto& path : paths) {
    const nlohmann::json* v = json_at(value, path);
    if (v == nullptr) {
      continue;
    }
    if (v->is_string() && !v->get<std::string>().empty()) {
      return std::make_pair(v->get<std::string>(), path);
    }
    if (v->is_number() || v->is_boolean()) {
      return std::make_pair(v->dump(), path);
    }
  }
  return std::nullopt;
}

} // namespace envlock::handover
