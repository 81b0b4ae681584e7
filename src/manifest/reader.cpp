#include "manifest/reader.hpp"

#include "manifest/scalar.hpp"
#include "manifest/yaml_load.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <cmath>

namespace envlock::manifest {

namespace {

std::string quoted(const std::string& path) {
  return "'" + path + "'";
}

std::string child_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

} // namespace

Field root_field(const YAML::Node& document) {
  return Field{"", YAML::Node(), document};
}

Error Reader::error(const Field& field, std::string_view message) const {
  const bool at_key = !field.key.Mark().is_null() && field.value.IsNull();
  return m_source.error_at(location_of(at_key ? field.key : field.value), message);
}

Error Reader::type_error(const Field& field, std::string_view what) const {
  return error(field, quoted(field.path) + " must be " + std::string(what) + ", got " +
                          std::string(kind_name(kind_of(field.value))));
}

Error Reader::format_error(const Field& field, std::string_view what) const {
  return error(field, quoted(field.path) + " must be " + std::string(what) + ", got '" +
                          field.value.Scalar() + "'");
}

Status Reader::mapping(const Field& field) const {
  if (!field.value.IsMap()) {
    return type_error(field, "a mapping");
  }
  return {};
}

Status Reader::only_keys(const Field& map, const std::vector<std::string>& allowed) const {
  for (const auto& entry : map.value) {
    const std::string& key = entry.first.Scalar();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) {
      continue;
    }
    std::string message = "unknown key '" + key + "'";
    if (!map.path.empty()) {
      message += " in " + quoted(map.path);
    }
    if (const auto suggestion = util::closest_match(key, allowed)) {
      message += "; did you mean '" + *suggestion + "'?";
    } else {
      message += "; accepted keys: " + util::join(allowed, ", ");
    }
    return m_source.error_at(location_of(entry.first), message);
  }
  return {};
}

std::vector<Field> Reader::entries(const Field& map) const {
  std::vector<Field> out;
  for (const auto& entry : map.value) {
    out.push_back(Field{child_path(map.path, entry.first.Scalar()), entry.first, entry.second});
  }
  return out;
}

std::optional<Field> Reader::find(const Field& map, std::string_view key) const {
  for (const auto& entry : map.value) {
    if (entry.first.Scalar() == key) {
      return Field{child_path(map.path, std::string(key)), entry.first, entry.second};
    }
  }
  return std::nullopt;
}

Result<Field> Reader::require(const Field& map, std::string_view key) const {
  if (auto field = find(map, key)) {
    return *std::move(field);
  }
  std::string message = "missing required key '" + std::string(key) + "'";
  if (!map.path.empty()) {
    message += " in " + quoted(map.path);
  }
  return m_source.error_at(location_of(map.value), message);
}

Result<std::string> Reader::string(const Field& field) const {
  const Kind kind = kind_of(field.value);
  if (kind == Kind::null || kind == Kind::list || kind == Kind::mapping) {
    return type_error(field, "a string");
  }
  return field.value.Scalar();
}

Result<std::string> Reader::non_empty_string(const Field& field) const {
  ENVLOCK_TRY_ASSIGN(std::string text, string(field));
  if (text.empty()) {
    return error(field, quoted(field.path) + " must not be empty");
  }
  return text;
}

Result<std::int64_t> Reader::integer(const Field& field) const {
  if (kind_of(field.value) != Kind::integer) {
    return type_error(field, "an integer");
  }
  const auto value = parse_integer(field.value.Scalar());
  if (!value) {
    return error(field, quoted(field.path) + " is out of range: " + field.value.Scalar());
  }
  return *value;
}

Result<double> Reader::number(const Field& field) const {
  const Kind kind = kind_of(field.value);
  if (kind != Kind::integer && kind != Kind::number) {
    return type_error(field, "a number");
  }
  const auto value = parse_number(field.value.Scalar());
  if (!value || !std::isfinite(*value)) {
    return error(field,
                 quoted(field.path) + " must be a finite number, got " + field.value.Scalar());
  }
  return *value;
}

Result<std::vector<std::string>> Reader::string_list(const Field& field) const {
  if (!field.value.IsSequence()) {
    return type_error(field, "a list of strings");
  }
  std::vector<std::string> out;
  std::size_t index = 0;
  for (const auto& item : field.value) {
    const Field element{field.path + "[" + std::to_string(index++) + "]", YAML::Node(), item};
    ENVLOCK_TRY_ASSIGN(std::string text, string(element));
    out.push_back(std::move(text));
  }
  return out;
}

Result<nlohmann::json> Reader::json(const Field& field) const {
  switch (kind_of(field.value)) {
  case Kind::null:
    return nlohmann::json(nullptr);
  case Kind::boolean:
    return nlohmann::json(field.value.Scalar().front() == 't' ||
                          field.value.Scalar().front() == 'T');
  case Kind::integer:
    if (const auto value = parse_integer(field.value.Scalar())) {
      return nlohmann::json(*value);
    }
    return error(field, quoted(field.path) + " is out of range: " + field.value.Scalar());
  case Kind::number: {
    ENVLOCK_TRY_ASSIGN(const double value, number(field));
    return nlohmann::json(value);
  }
  case Kind::string:
    return nlohmann::json(field.value.Scalar());
  case Kind::list: {
    nlohmann::json out = nlohmann::json::array();
    std::size_t index = 0;
    for (const auto& item : field.value) {
      ENVLOCK_TRY_ASSIGN(
          nlohmann::json element,
          json(Field{field.path + "[" + std::to_string(index++) + "]", YAML::Node(), item}));
      out.push_back(std::move(element));
    }
    return out;
  }
  case Kind::mapping: {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& entry : entries(field)) {
      ENVLOCK_TRY_ASSIGN(nlohmann::json element, json(entry));
      out[entry.key.Scalar()] = std::move(element);
    }
    return out;
  }
  }
  return type_error(field, "a value");
}

} // namespace envlock::manifest
