// What every record of src/formats/ shares. A record is a JSON file one envlock command writes
// and another reads (docs/formats/*.md): canonical JSON (util/json.hpp), written atomically, with
// a "schema" naming its format. Each record's header has the same shape: the schema id and the
// usual file name, the struct, to_json(const T&), from_json<T>(json, origin), read_T(path) and
// write_T(path, T), and, where the record lives beside another file, the one function that
// finds it. Every reader is a util::FieldReader: a foreign schema and an unknown key are refused
// with the JSON path ("report.json: checks[2].outcome: 'passed' is not one of pass, fail, skip").
#pragma once

#include "util/field_reader.hpp"
#include "util/json.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::formats {

// Reads record T from `value`; errors name `origin` (a file name) and the JSON path. Each record's
// header declares its specialisation.
template <class T> Result<T> from_json(const nlohmann::json& value, const std::string& origin);

// Reads the "schema" field of `r` and records an error unless it is `expected`:
// "ORIGIN: schema: 'envlock.report/v1' is not envlock.squashfs-result/v1".
void read_schema(util::FieldReader& r, const char* expected);

// Reads the text at `key` and records an error unless it is one of `allowed`:
// "ORIGIN: PATH: 'passed' is not one of pass, fail, skip".
std::string read_choice(util::FieldReader& r, const char* key,
                        const std::vector<std::string>& allowed);

// Records an error unless `text` is "sha256:" and 64 lowercase hex digits (or empty, with
// Empty::allowed).
enum class Empty { refused, allowed };
void check_digest(util::FieldReader& r, const char* key, const std::string& text,
                  Empty empty = Empty::refused);
// Records an error unless `text` is 64 lowercase hex digits (a sha256).
void check_sha256(util::FieldReader& r, const char* key, const std::string& text,
                  Empty empty = Empty::refused);

// Reads record T from the JSON file at `path` (64 MiB at most); errors name the path.
template <class T> Result<T> read_record(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const nlohmann::json value, util::read_json_file(path));
  return from_json<T>(value, path.string());
}

} // namespace envlock::formats
