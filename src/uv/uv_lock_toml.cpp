// The general reader: toml++ parses the whole document; its errors carry line and column.
#include "uv/raw_lock.hpp"
#include "uv/uv_lock.hpp"

#include <toml++/toml.h>

namespace envlock::uv {

namespace {

const char* toml_type_name(toml::node_type type) {
  switch (type) {
  case toml::node_type::table:
    return "a table";
  case toml::node_type::array:
    return "an array";
  case toml::node_type::string:
    return "a string";
  case toml::node_type::integer:
    return "an integer";
  case toml::node_type::floating_point:
    return "a float";
  case toml::node_type::boolean:
    return "a boolean";
  case toml::node_type::date:
  case toml::node_type::time:
  case toml::node_type::date_time:
    return "a date or time";
  default:
    return "nothing";
  }
}

// "ORIGIN:L:C: WHAT: 'KEY' must be EXPECTED, got a float": a value uv's own parser refuses for
// its type, which envlock must not read as absent.
Error type_error(std::string_view origin, const toml::node& node, const std::string& what,
                 std::string_view key, const char* expected) {
  const auto& where = node.source().begin;
  return input_error(std::string(origin) + ":" + std::to_string(where.line) + ":" +
                     std::to_string(where.column) + ": " + what + "'" + std::string(key) +
                     "' must be " + expected + ", got " + toml_type_name(node.type()));
}

Status expect_type(std::string_view origin, const toml::table& table, std::string_view key,
                   toml::node_type type, const std::string& what, const char* expected) {
  const toml::node* node = table.get(key);
  if (node != nullptr && node->type() != type) {
    return type_error(origin, *node, what, key, expected);
  }
  return {};
}

Result<RawPackage> raw_package(const toml::table& table, std::string_view origin) {
  RawPackage raw;
  if (const auto* name = table.get_as<std::string>("name"); name != nullptr) {
    raw.name = name->get();
  }
  const std::string what = raw.name ? "package '" + *raw.name + "': " : "package: ";
  ENVLOCK_TRY(expect_type(origin, table, "name", toml::node_type::string, what, "a string"));
  ENVLOCK_TRY(expect_type(origin, table, "version", toml::node_type::string, what, "a string"));
  ENVLOCK_TRY(expect_type(origin, table, "source", toml::node_type::table, what, "a table"));
  if (const auto* version = table.get_as<std::string>("version"); version != nullptr) {
    raw.version = version->get();
  }
  if (const auto* source = table.get_as<toml::table>("source"); source != nullptr) {
    raw.has_source = true;
    for (const auto& [key, value] : *source) {
      if (const auto* text = value.as_string(); text != nullptr) {
        raw.source_keys.emplace_back(std::string(key.str()), text->get());
      }
    }
  }
  return raw;
}

} // namespace

Result<lock::UvLockPin> parse_uv_lock_toml(std::string_view text, std::string_view origin) {
  toml::table doc;
  try {
    doc = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return input_error(std::string(origin) + ":" + std::to_string(where.line) + ":" +
                       std::to_string(where.column) + ": " + std::string(e.description()));
  }
  RawLock raw;
  ENVLOCK_TRY(expect_type(origin, doc, "version", toml::node_type::integer, "", "an integer"));
  ENVLOCK_TRY(expect_type(origin, doc, "revision", toml::node_type::integer, "", "an integer"));
  ENVLOCK_TRY(expect_type(origin, doc, "requires-python", toml::node_type::string, "", "a string"));
  ENVLOCK_TRY(
      expect_type(origin, doc, "package", toml::node_type::array, "", "an array of tables"));
  // value_exact: an integer only. (value<int64_t> converts floats, and one out of range is
  // undefined behaviour inside toml++.)
  raw.version = doc["version"].value_exact<std::int64_t>();
  raw.revision = doc["revision"].value_exact<std::int64_t>().value_or(0);
  raw.requires_python = doc["requires-python"].value_or(std::string());
  if (const auto* packages = doc.get_as<toml::array>("package"); packages != nullptr) {
    for (std::size_t i = 0; i < packages->size(); ++i) {
      const toml::node& node = *packages->get(i);
      const auto* table = node.as_table();
      if (table == nullptr) {
        return type_error(origin, node, "package #" + std::to_string(i + 1) + ": ", "package",
                          "a table");
      }
      ENVLOCK_TRY_ASSIGN(auto package, raw_package(*table, origin));
      raw.packages.push_back(std::move(package));
    }
  }
  return finish_lock(std::move(raw), origin);
}

} // namespace envlock::uv
