// FieldReader: reads the fields of one JSON object and remembers the first error, naming the
// field's JSON path ("envlock.lock.json: base_image.digest: missing"). finish() refuses the keys
// nobody asked for ("unknown key 'digets'; did you mean 'digest'?"), so every record is read by
// one typed reader and no key slips through. It knows JSON, not what the object means: the lock
// and every record envlock hands from one command to another are read with it.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace envlock::util {

// Whether a field must be there: a missing required field is an error, a missing optional one
// reads as the empty value.
enum class Presence { required, optional };

class FieldReader {
public:
  // Reads `obj`, named `path` ("" for the whole document, which errors call `whole`: "the lock")
  // in errors prefixed with "ORIGIN: " (nothing when `origin` is empty).
  FieldReader(const nlohmann::json& obj, std::string origin, std::string path,
              std::string whole = "the document");

  // The string at `key`; "" (and an error when required) when absent or of another type.
  std::string str(const char* key, Presence presence = Presence::required);
  // The string at `key`, or nothing for null; an error when absent or of another type.
  std::optional<std::string> nullable_str(const char* key);
  // The integer at `key`; 0 (and an error when required) when absent or of another type.
  std::int64_t integer(const char* key, Presence presence = Presence::required);
  // The integer >= 0 at `key`; 0 (and an error when required) when absent or of another type.
  std::uint64_t uinteger(const char* key, Presence presence = Presence::required);
  // Any number at `key`; 0 (and an error when required) when absent or not a number.
  double number(const char* key, Presence presence = Presence::required);
  // true or false at `key`; false (and an error when required) when absent or of another type.
  bool boolean(const char* key, Presence presence = Presence::required);
  // The object or array at `key`; null when absent (an error when required) or of another type.
  const nlohmann::json* object(const char* key, Presence presence = Presence::required);
  const nlohmann::json* array(const char* key, Presence presence = Presence::required);
  // Any value at `key`; null when absent.
  const nlohmann::json* any(const char* key);
  // The array of strings at `key` (each item checked: "checks[2]: must be a string").
  std::vector<std::string> strings(const char* key, Presence presence = Presence::required);
  // The object of strings at `key` (each value checked: "build_args.X: must be a string").
  std::map<std::string, std::string> string_map(const char* key,
                                                Presence presence = Presence::required);

  // A reader of the object at `key` (an empty one when absent), sharing this one's first error.
  FieldReader sub(const char* key, Presence presence = Presence::required);
  // A reader of `item`, the element `index` of the array at `key`, sharing this one's first error.
  FieldReader element(const char* key, std::size_t index, const nlohmann::json& item);
  // A reader of `item`, the value of `name` in the object at `key` ("sources.megatron").
  FieldReader member(const char* key, const std::string& name, const nlohmann::json& item);
  // Adopts the first error of a sub-reader, after its unknown keys are checked.
  void merge(FieldReader& other);
  // The keys of this object that no field read asked for are errors.
  void finish();
  // Records an error at `path` unless one is recorded already.
  void fail(const std::string& path, const std::string& what);

  [[nodiscard]] const std::optional<Error>& error() const { return m_error; }
  // Checks the unknown keys, then: nothing, or the first error.
  [[nodiscard]] Status status();
  [[nodiscard]] const std::string& origin() const { return m_origin; }
  // The JSON path of `key` in this object ("base_image.digest").
  [[nodiscard]] std::string join(const std::string& key) const;
  // This object's path, or `whole` for the document itself.
  [[nodiscard]] std::string where() const;

private:
  FieldReader child(const nlohmann::json& obj, std::string path) const;
  const nlohmann::json* find(const char* key, Presence presence);

  const nlohmann::json& m_obj;
  std::string m_origin;
  std::string m_path;
  std::string m_whole;
  std::set<std::string> m_seen;
  std::optional<Error> m_error;
};

} // namespace envlock::util
