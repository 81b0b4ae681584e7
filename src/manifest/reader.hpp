// Typed reading of a checked YAML document: each accessor returns the value or one located error
// ("'expect.gpus.count' must be an integer, got a string"), so the section parsers read like the
// schema they implement.
#pragma once

#include "manifest/source_text.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace envlock::manifest {

// One node of the manifest with the dotted path that names it and the key that introduced it.
struct Field {
  std::string path; // "expect.gpus.count"; empty for the document itself
  YAML::Node key;   // undefined for the document and for list items
  YAML::Node value;
};

class Reader {
public:
  explicit Reader(const SourceText& source) : m_source(source) {}

  // An error located at the field's value, or at its key when the value is null (yaml-cpp puts
  // a null value at the next token).
  [[nodiscard]] Error error(const Field& field, std::string_view message) const;
  // "'PATH' must be WHAT, got KIND" at the field.
  [[nodiscard]] Error type_error(const Field& field, std::string_view what) const;
  // "'PATH' must be WHAT, got 'TEXT'" at the field, for a scalar of the wrong format.
  [[nodiscard]] Error format_error(const Field& field, std::string_view what) const;

  // Fails unless the field is a mapping.
  [[nodiscard]] Status mapping(const Field& field) const;
  // Fails at the first key (in document order) that is not in `allowed`, suggesting the closest
  // allowed key or listing them all.
  [[nodiscard]] Status only_keys(const Field& map, const std::vector<std::string>& allowed) const;
  // The entries of a mapping, in document order.
  [[nodiscard]] std::vector<Field> entries(const Field& map) const;
  // The entry `key` of a mapping, if present.
  [[nodiscard]] std::optional<Field> find(const Field& map, std::string_view key) const;
  // The entry `key` of a mapping; fails with "missing required key" at the mapping.
  [[nodiscard]] Result<Field> require(const Field& map, std::string_view key) const;

  // A scalar's text; fails for null, lists and mappings.
  [[nodiscard]] Result<std::string> string(const Field& field) const;
  // Like string(), and fails for an empty string.
  [[nodiscard]] Result<std::string> non_empty_string(const Field& field) const;
  // A plain decimal integer that fits in 64 bits.
  [[nodiscard]] Result<std::int64_t> integer(const Field& field) const;
  // A plain finite integer or float.
  [[nodiscard]] Result<double> number(const Field& field) const;
  // A list of scalars' texts.
  [[nodiscard]] Result<std::vector<std::string>> string_list(const Field& field) const;
  // Any node as JSON: mappings become objects (keys sorted), plain scalars take their core-schema
  // type, quoted scalars are strings. Fails for non-finite numbers.
  [[nodiscard]] Result<nlohmann::json> json(const Field& field) const;

private:
  const SourceText& m_source;
};

// The document itself as the root field.
Field root_field(const YAML::Node& document);

} // namespace envlock::manifest
