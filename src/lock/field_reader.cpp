#include "lock/field_reader.hpp"

#include "util/strings.hpp"

namespace envlock::lock {

using nlohmann::json;

FieldReader::FieldReader(const json& obj, std::string origin, std::string path)
    : m_obj(obj), m_origin(std::move(origin)), m_path(std::move(path)) {
  if (!m_obj.is_object()) {
    fail(m_path.empty() ? "the lock" : m_path, "must be an object");
  }
}

std::string FieldReader::str(const char* key, bool required) {
  const json* v = find(key, required);
  if (v == nullptr) {
    return {};
  }
  if (!v->is_string()) {
    fail(join(key), "must be a string");
    return {};
  }
  return v->get<std::string>();
}

std::int64_t FieldReader::integer(const char* key, bool required) {
  const json* v = find(key, required);
  if (v == nullptr) {
    return 0;
  }
  if (!v->is_number_integer()) {
    fail(join(key), "must be an integer");
    return 0;
  }
  return v->get<std::int64_t>();
}

const json* FieldReader::object(const char* key, bool required) {
  const json* v = find(key, required);
  if (v != nullptr && !v->is_object()) {
    fail(join(key), "must be an object");
    return nullptr;
  }
  return v;
}

const json* FieldReader::array(const char* key, bool required) {
  const json* v = find(key, required);
  if (v != nullptr && !v->is_array()) {
    fail(join(key), "must be an array");
    return nullptr;
  }
  return v;
}

const json* FieldReader::any(const char* key) {
  return find(key, false);
}

FieldReader FieldReader::sub(const char* key, bool required) {
  const json* v = object(key, required);
  static const json k_empty = json::object();
  FieldReader r(v != nullptr ? *v : k_empty, m_origin, join(key));
  r.m_error = m_error;
  return r;
}

void FieldReader::merge(FieldReader& other) {
  other.finish();
  if (!m_error && other.m_error) {
    m_error = other.m_error;
  }
}

void FieldReader::finish() {
  if (!m_obj.is_object()) {
    return;
  }
  for (const auto& [key, value] : m_obj.items()) {
    if (m_seen.count(key) == 0) {
      std::string what = "unknown key '" + key + "'";
      if (const auto close = util::closest_match(key, {m_seen.begin(), m_seen.end()})) {
        what += "; did you mean '" + *close + "'?";
      }
      fail(m_path.empty() ? std::string("the lock") : m_path, what);
    }
  }
}

void FieldReader::fail(const std::string& path, const std::string& what) {
  if (!m_error) {
    m_error = input_error(m_origin + ": " + path + ": " + what);
  }
}

std::string FieldReader::join(const std::string& key) const {
  return m_path.empty() ? key : m_path + "." + key;
}

const json* FieldReader::find(const char* key, bool required) {
  m_seen.insert(key);
  if (!m_obj.is_object()) {
    return nullptr;
  }
  const auto it = m_obj.find(key);
  if (it == m_obj.end()) {
    if (required) {
      fail(join(key), "missing");
    }
    return nullptr;
  }
  return &*it;
}

} // namespace envlock::lock
