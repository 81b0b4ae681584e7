#include "node/health/value.hpp"

namespace envlock::node::health {

using nlohmann::json;

json value_fact(json value, const std::string& source) {
  return {{"value", std::move(value)}, {"source", source}};
}

json missing_value(const std::string& source, const std::string& why) {
  return {{"value", nullptr}, {"source", source}, {"missing", why}};
}

json unsupported_value(const std::string& source, const std::string& why) {
  json out = missing_value(source, why);
  out["not_supported"] = true;
  return out;
}

std::optional<json> value_of(const json& facts, const std::string& key) {
  const auto it = facts.find(key);
  if (it == facts.end() || !it->is_object()) {
    return std::nullopt;
  }
  const auto value = it->find("value");
  if (value == it->end() || value->is_null()) {
    return std::nullopt;
  }
  return *value;
}

bool unsupported(const json& facts, const std::string& key) {
  const auto it = facts.find(key);
  return it != facts.end() && it->is_object() && it->value("not_supported", false);
}

std::string why_missing(const json& facts, const std::string& key) {
  const auto it = facts.find(key);
  if (it == facts.end() || !it->is_object()) {
    return key + ": not read";
  }
  return it->value("missing", key + ": no value");
}

} // namespace envlock::node::health
