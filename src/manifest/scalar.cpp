#include "manifest/scalar.hpp"

#include <array>
#include <charconv>
#include <limits>

namespace envlock::manifest {

namespace {

constexpr std::string_view k_core_prefix = "tag:yaml.org,2002:";

bool is_null_text(std::string_view text) {
  return text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL";
}

bool is_bool_text(std::string_view text) {
  constexpr std::array<std::string_view, 6> k_words = {"true",  "True",  "TRUE",
                                                       "false", "False", "FALSE"};
  for (const auto word : k_words) {
    if (text == word) {
      return true;
    }
  }
  return false;
}

bool is_digits(std::string_view text) {
  if (text.empty()) {
    return false;
  }
  for (const char c : text) {
    if (c < '0' || c > '9') {
      return false;
    }
  }
  return true;
}

std::string_view without_sign(std::string_view text) {
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    text.remove_prefix(1);
  }
  return text;
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool is_float_text(std::string_view text) {
  text = without_sign(text);
  const std::size_t e = text.find_first_of("eE");
  if (e != std::string_view::npos) {
    if (!is_digits(without_sign(text.substr(e + 1)))) {
      return false;
    }
    text = text.substr(0, e);
  }
  const std::size_t dot = text.find('.');
  if (dot == std::string_view::npos) {
    return is_digits(text);
  }
  const std::string_view whole = text.substr(0, dot);
  const std::string_view fraction = text.substr(dot + 1);
  if (whole.empty()) {
    return is_digits(fraction);
  }
  return is_digits(whole) && (fraction.empty() || is_digits(fraction));
}

bool is_special_float(std::string_view text) {
  const std::string_view magnitude = without_sign(text);
  const bool inf = magnitude == ".inf" || magnitude == ".Inf" || magnitude == ".INF";
  const bool nan = text == ".nan" || text == ".NaN" || text == ".NAN";
  return inf || nan;
}

Kind plain_kind(std::string_view text) {
  if (is_null_text(text)) {
    return Kind::null;
  }
  if (is_bool_text(text)) {
    return Kind::boolean;
  }
  if (is_digits(without_sign(text))) {
    return Kind::integer;
  }
  if (is_float_text(text) || is_special_float(text)) {
    return Kind::number;
  }
  return Kind::string;
}

} // namespace

Kind kind_of(const YAML::Node& node) {
  switch (node.Type()) {
  case YAML::NodeType::Sequence:
    return Kind::list;
  case YAML::NodeType::Map:
    return Kind::mapping;
  case YAML::NodeType::Scalar:
    break;
  default:
    return Kind::null;
  }
  const std::string& tag = node.Tag();
  if (tag == "?") {
    return plain_kind(node.Scalar());
  }
  if (tag == std::string(k_core_prefix) + "null") {
    return Kind::null;
  }
  if (tag == std::string(k_core_prefix) + "bool") {
    return Kind::boolean;
  }
  if (tag == std::string(k_core_prefix) + "int") {
    return Kind::integer;
  }
  if (tag == std::string(k_core_prefix) + "float") {
    return Kind::number;
  }
  return Kind::string;
}

std::string_view kind_name(Kind kind) {
  switch (kind) {
  case Kind::null:
    return "null";
  case Kind::boolean:
    return "a boolean";
  case Kind::integer:
    return "an integer";
  case Kind::number:
    return "a number";
  case Kind::string:
    return "a string";
  case Kind::list:
    return "a list";
  case Kind::mapping:
    return "a mapping";
  }
  return "a value";
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
  }
  if (!is_digits(without_sign(text))) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<double> parse_number(std::string_view text) {
  if (is_special_float(text)) {
    const std::string_view magnitude = without_sign(text);
    if (magnitude.size() == 4 && (magnitude[1] == 'n' || magnitude[1] == 'N')) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    const double inf = std::numeric_limits<double>::infinity();
    return text.front() == '-' ? -inf : inf;
  }
  if (!is_float_text(text)) {
    return std::nullopt;
  }
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

bool is_supported_tag(const std::string& tag) {
  if (tag.empty() || tag == "?" || tag == "!") {
    return true;
  }
  constexpr std::array<std::string_view, 7> k_core = {"str",  "int", "float", "bool",
                                                      "null", "map", "seq"};
  for (const auto name : k_core) {
    if (tag == std::string(k_core_prefix) + std::string(name)) {
      return true;
    }
  }
  return false;
}

} // namespace envlock::manifest
