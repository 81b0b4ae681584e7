#include "util/field_reader.hpp"

#include "util/strings.hpp"

namespace envlock::util {

using nlohmann::json;

FieldReader::FieldReader(const json& obj, std::string origin, std::string path, std::string whole)
    : m_obj(obj), m_origin(std::move(origin)), m_path(std::move(path)), m_whole(std::move(whole)) {
  if (!m_obj.is_object()) {
    fail(where(), "must be an object");
  }
}

std::string FieldReader::str(const char* key, Presence presence) {
  const json* v = find(key, presence);
  if (v == nullptr) {
    return {};
  }
  if (!v->is_string()) {
    fail(join(key), "must be a string");
    return {};
  }
  return v->get<std::string>();
}

std::optional<std::string> FieldReader::nullable_str(const char* key) {
  const json* v = find(key, Presence::required);
  if (v == nullptr || v->is_null()) {
    return std::nullopt;
  }
  if (!v->is_string()) {
    fail(join(key), "must be a string or null");
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::int64_t FieldReader::integer(const char* key, Presence presence) {
  const json* v = find(key, presence);
  if (v == nullptr) {
    return 0;
  }
  if (!v->is_number_integer()) {
    fail(join(key), "must be an integer");
    return 0;
  }
  return v->get<std::int64_t>();
}

std::uint64_t FieldReader::uinteger(const char* key, Presence presence) {
  const json* v = find(key, presence);
  if (v == nullptr) {
    return 0;
  }
  if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0)) {
    fail(join(key), "must be an integer >= 0");
    return 0;
  }
  return v->get<std::uint64_t>();
}

double FieldReader::number(const char* key, Presence presence) {
  const json* v = find(key, presence);
  if (v == nullptr) {
    return 0;
  }
  if (!v->is_number()) {
    fail(join(key), "must be a number");
    return 0;
  }
  return v->get<double>();
}

bool FieldReader::boolean(const char* key, Presence presence) {
  const json* v = find(key, presence);
  if (v == nullptr) {
    return false;
  }
  if (!v->is_boolean()) {
    fail(join(key), "must be true or false");
    return false;
  }
  return v->get<bool>();
}

const json* FieldReader::object(const char* key, Presence presence) {
  const json* v = find(key, presence);
  if (v != nullptr && !v->is_object()) {
    fail(join(key), "must be an object");
    return nullptr;
  }
  return v;
}

const json* FieldReader::array(const char* key, Presence presence) {
  const json* v = find(key, presence);
  if (v != nullptr && !v->is_array()) {
    fail(join(key), "must be an array");
    return nullptr;
  }
  return v;
}

const json* FieldReader::any(const char* key) {
  return find(key, Presence::optional);
}

std::vector<std::string> FieldReader::strings(const char* key, Presence presence) {
  std::vector<std::string> out;
  const json* list = array(key, presence);
  if (list == nullptr) {
    return out;
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    if (!(*list)[i].is_string()) {
      fail(join(key) + "[" + std::to_string(i) + "]", "must be a string");
      return {};
    }
    out.push_back((*list)[i].get<std::string>());
  }
  return out;
}

std::map<std::string, std::string> FieldReader::string_map(const char* key, Presence presence) {
  std::map<std::string, std::string> out;
  const json* obj = object(key, presence);
  if (obj == nullptr) {
    return out;
  }
  for (const auto& [name, value] : obj->items()) {
    if (!value.is_string()) {
      fail(join(key) + "." + name, "must be a string");
      continue;
    }
    out[name] = value.get<std::string>();
  }
  return out;
}

FieldReader FieldReader::child(const json& obj, std::string path) const {
  FieldReader r(obj, m_origin, std::move(path), m_whole);
  if (m_error) {
    r.m_error = m_error;
  }
  return r;
}

FieldReader FieldReader::sub(const char* key, Presence presence) {
  const json* v = object(key, presence);
  static const json k_empty = json::object();
  return child(v != nullptr ? *v : k_empty, join(key));
}

FieldReader FieldReader::element(const char* key, std::size_t index, const json& item) {
  return child(item, join(key) + "[" + std::to_string(index) + "]");
}

FieldReader FieldReader::member(const char* key, const std::string& name, const json& item) {
  return child(item, join(key) + "." + name);
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
      if (const auto close = closest_match(key, {m_seen.begin(), m_seen.end()})) {
        what += "; did you mean '" + *close + "'?";
      }
      fail(where(), what);
    }
  }
}

Status FieldReader::status() {
  finish();
  if (m_error) {
    return *m_error;
  }
  return {};
}

void FieldReader::fail(const std::string& path, const std::string& what) {
  if (!m_error) {
    m_error = input_error((m_origin.empty() ? "" : m_origin + ": ") + path + ": " + what);
  }
}

std::string FieldReader::join(const std::string& key) const {
  return m_path.empty() ? key : m_path + "." + key;
}

std::string FieldReader::where() const {
  return m_path.empty() ? m_whole : m_path;
}

const json* FieldReader::find(const char* key, Presence presence) {
  m_seen.insert(key);
  if (!m_obj.is_object()) {
    return nullptr;
  }
  const auto it = m_obj.find(key);
  if (it == m_obj.end()) {
    if (presence == Presence::required) {
      fail(join(key), "missing");
    }
    return nullptr;
  }
  return &*it;
}

} // namespace envlock::util
