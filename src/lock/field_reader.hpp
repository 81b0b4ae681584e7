// FieldReader: reads the fields of one JSON object of a lock and remembers the first error,
// naming the field's JSON path ("envlock.lock.json: base_image.digest: missing"). finish()
// refuses the keys nobody asked for ("unknown key 'digets'; did you mean 'digest'?"), so every
// section of the lock is read by one typed reader and no key slips through.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

namespace envlock::lock {

class FieldReader {
public:
  // Reads `obj`, named `path` ("" for the lock itself) in errors prefixed with `origin`.
  FieldReader(const nlohmann::json& obj, std::string origin, std::string path);

  // The string at `key`; "" (and an error when required) when absent or of another type.
  std::string str(const char* key, bool required = true);
  // The integer at `key`; 0 (and an error when required) when absent or of another type.
  std::int64_t integer(const char* key, bool required = true);
  // The object or array at `key`; null when absent (an error when required) or of another type.
  const nlohmann::json* object(const char* key, bool required = true);
  const nlohmann::json* array(const char* key, bool required = true);
  // Any value at `key`; null when absent.
  const nlohmann::json* any(const char* key);

  // A reader of the object at `key` (an empty one when absent), sharing this one's first error.
  FieldReader sub(const char* key, bool required = true);
  // Adopts the first error of a sub-reader, after its unknown keys are checked.
  void merge(FieldReader& other);
  // The keys of this object that no field read asked for are errors.
  void finish();
  // Records an error at `path` unless one is recorded already.
  void fail(const std::string& path, const std::string& what);

  [[nodiscard]] const std::optional<Error>& error() const { return m_error; }
  [[nodiscard]] const std::string& origin() const { return m_origin; }
  // The JSON path of `key` in this object ("base_image.digest").
  [[nodiscard]] std::string join(const std::string& key) const;

private:
  const nlohmann::json* find(const char* key, bool required);

  const nlohmann::json& m_obj;
  std::string m_origin;
  std::string m_path;
  std::set<std::string> m_seen;
  std::optional<Error> m_error;
};

} // namespace envlock::lock
