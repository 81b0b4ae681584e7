// The general reader: toml++ parses the whole document; its errors carry line and column.
#include "uv/raw_lock.hpp"
#include "uv/uv_lock.hpp"

#include <toml++/toml.h>

namespace envlock::uv {

namespace {

RawPackage raw_package(const toml::table& table) {
  RawPackage raw;
  if (const auto* name = table.get_as<std::string>("name"); name != nullptr) {
    raw.name = name->get();
  }
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
  // value_exact: an integer only. (value<int64_t> converts floats, and one out of range is
  // undefined behaviour inside toml++.)
  raw.version = doc["version"].value_exact<std::int64_t>();
  raw.revision = doc["revision"].value_exact<std::int64_t>().value_or(0);
  raw.requires_python = doc["requires-python"].value_or(std::string());
  if (const auto* packages = doc.get_as<toml::array>("package"); packages != nullptr) {
    for (std::size_t i = 0; i < packages->size(); ++i) {
      const auto* table = packages->get(i)->as_table();
      raw.packages.push_back(table == nullptr ? RawPackage{} : raw_package(*table));
    }
  }
  return finish_lock(std::move(raw), origin);
}

} // namespace envlock::uv
