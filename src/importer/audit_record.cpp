#include "importer/audit_record.hpp"

#include <set>

namespace envlock::importer {

using nlohmann::json;

namespace {

// Reads the fields of one object, refusing unknown keys; the first problem is kept.
class Fields {
public:
  Fields(const json& object, std::string path, const std::string& origin)
      : m_object(object), m_path(std::move(path)), m_origin(origin) {}

  std::string text(const char* key) {
    const json* value = find(key);
    if (value == nullptr) {
      return {};
    }
    if (!value->is_string()) {
      problem(key, "must be a string");
      return {};
    }
    return value->get<std::string>();
  }

  bool boolean(const char* key) {
    const json* value = find(key);
    if (value == nullptr) {
      return false;
    }
    if (!value->is_boolean()) {
      problem(key, "must be true or false");
      return false;
    }
    return value->get<bool>();
  }

  std::int64_t integer(const char* key, std::int64_t min, std::int64_t max) {
    const json* value = find(key);
    if (value == nullptr) {
      return 0;
    }
    if (!value->is_number_integer() || value->get<std::int64_t>() < min ||
        value->get<std::int64_t>() > max) {
      problem(key, "must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
      return 0;
    }
    return value->get<std::int64_t>();
  }

  std::vector<std::string> texts(const char* key) {
    const json* value = find(key);
    std::vector<std::string> out;
    if (value == nullptr) {
      return out;
    }
    if (!value->is_array()) {
      problem(key, "must be a list of strings");
      return out;
    }
    for (const auto& item : *value) {
      if (!item.is_string()) {
        problem(key, "must be a list of strings");
        return {};
      }
      out.push_back(item.get<std::string>());
    }
    return out;
  }

  const json* object(const char* key) {
    const json* value = find(key);
    if (value != nullptr && !value->is_object()) {
      problem(key, "must be an object");
      return nullptr;
    }
    return value;
  }

  // Fails on keys not read; returns the first problem, if any.
  Status finish() {
    for (const auto& item : m_object.items()) {
      if (!m_read.contains(item.key()) && m_error.empty()) {
        m_error = m_origin + ": " + m_path + item.key() + ": unknown key";
      }
    }
    if (!m_error.empty()) {
      return input_error(m_error);
    }
    return {};
  }

  [[nodiscard]] std::string path() const { return m_path; }

private:
  const json* find(const char* key) {
    m_read.insert(key);
    const auto it = m_object.find(key);
    if (it == m_object.end()) {
      problem(key, "missing");
      return nullptr;
    }
    return &*it;
  }
  void problem(const char* key, const std::string& what) {
    if (m_error.empty()) {
      m_error = m_origin + ": " + m_path + key + ": " + what;
    }
  }

  const json& m_object;
  std::string m_path;
  const std::string& m_origin;
  std::set<std::string> m_read;
  std::string m_error;
};

} // namespace

const char* to_string(AuditOutcome outcome) {
  switch (outcome) {
  case AuditOutcome::ok:
    return "ok";
  case AuditOutcome::refused:
    return "refused";
  case AuditOutcome::failed:
    return "failed";
  }
  return "failed";
}

json to_json(const AuditEntry& e) {
  return {{"schema", k_audit_schema},
          {"time", e.time},
          {"node", e.node},
          {"job", e.job},
          {"step", e.step},
          {"job_claimed", e.job_claimed},
          {"uid", e.uid},
          {"user", e.user},
          {"command", e.command},
          {"image", e.image},
          {"config", e.config},
          {"pin",
           {{"role", e.pin_role},
            {"lock", e.pin_lock},
            {"lock_sha256", e.pin_lock_sha256},
            {"digest", e.pin_digest},
            {"manifest_digest", e.pin_manifest_digest}}},
          {"sqsh",
           {{"path", e.sqsh_path},
            {"sha256", e.sqsh_sha256},
            {"source", e.sqsh_source},
            {"checked", e.sqsh_checked}}},
          {"outcome", to_string(e.outcome)},
          {"exit_code", e.exit_code},
          {"message", e.message},
          {"warnings", e.warnings},
          {"waits", e.waits}};
}

Result<AuditEntry> audit_from_json(const json& value, const std::string& origin) {
  if (!value.is_object()) {
    return input_error(origin + ": not a JSON object");
  }
  Fields top(value, "", origin);
  AuditEntry e;
  (void)top.text("schema");
  const bool v1 = value.contains("schema") && value["schema"] == k_audit_schema_v1;
  if (!v1 && (!value.contains("schema") || value["schema"] != k_audit_schema)) {
    return input_error(origin + ": not an " + std::string(k_audit_schema));
  }
  e.time = top.text("time");
  e.node = top.text("node");
  e.job = top.text("job");
  e.step = top.text("step");
  e.job_claimed = v1 ? false : top.boolean("job_claimed");
  e.uid = static_cast<std::uint32_t>(top.integer("uid", 0, 4294967295));
  e.user = top.text("user");
  e.command = top.text("command");
  e.image = top.text("image");
  e.config = top.text("config");
  if (const json* pin = top.object("pin")) {
    Fields f(*pin, "pin.", origin);
    e.pin_role = f.text("role");
    e.pin_lock = f.text("lock");
    e.pin_lock_sha256 = f.text("lock_sha256");
    e.pin_digest = f.text("digest");
    e.pin_manifest_digest = f.text("manifest_digest");
    ENVLOCK_TRY(f.finish());
  }
  if (const json* sqsh = top.object("sqsh")) {
    Fields f(*sqsh, "sqsh.", origin);
    e.sqsh_path = f.text("path");
    e.sqsh_sha256 = f.text("sha256");
    e.sqsh_source = f.text("source");
    e.sqsh_checked = v1 ? std::string() : f.text("checked");
    ENVLOCK_TRY(f.finish());
  }
  const std::string outcome = top.text("outcome");
  if (outcome == "ok") {
    e.outcome = AuditOutcome::ok;
  } else if (outcome == "refused") {
    e.outcome = AuditOutcome::refused;
  } else if (outcome == "failed") {
    e.outcome = AuditOutcome::failed;
  } else if (!outcome.empty()) {
    return input_error(origin + ": outcome: must be ok, refused or failed, not '" + outcome + "'");
  }
  e.exit_code = static_cast<int>(top.integer("exit_code", 0, 255));
  e.message = top.text("message");
  e.warnings = top.texts("warnings");
  if (!v1) {
    e.waits = top.texts("waits");
  }
  ENVLOCK_TRY(top.finish());
  return e;
}

namespace {

constexpr std::size_t k_max_item = 1024;

void shorten(std::string& text, std::size_t max) {
  if (text.size() > max) {
    // Cut at a character boundary: never inside a UTF-8 sequence.
    std::size_t end = max;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) {
      --end;
    }
    text = text.substr(0, end) + " [" + std::to_string(text.size() - end) + " bytes not shown]";
  }
}

void shorten_list(std::vector<std::string>& items, std::size_t keep) {
  for (auto& item : items) {
    shorten(item, k_max_item);
  }
  if (items.size() > keep) {
    const std::size_t dropped = items.size() - keep;
    items.resize(keep);
    items.push_back(std::to_string(dropped) + " more not shown");
  }
}

std::string dumped(const AuditEntry& entry) {
  return to_json(entry).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

} // namespace

std::string audit_line(const AuditEntry& entry) {
  std::string line = dumped(entry);
  if (line.size() <= k_max_audit_line) {
    return line;
  }
  AuditEntry short_entry = entry;
  shorten(short_entry.message, 4 * k_max_item);
  for (std::string* field : {&short_entry.image, &short_entry.node, &short_entry.job,
                             &short_entry.step, &short_entry.config, &short_entry.sqsh_path,
                             &short_entry.pin_lock, &short_entry.pin_role}) {
    shorten(*field, k_max_item / 4);
  }
  shorten_list(short_entry.warnings, 4);
  shorten_list(short_entry.waits, 2);
  line = dumped(short_entry);
  if (line.size() <= k_max_audit_line) {
    return line;
  }
  short_entry.warnings = {"warnings not shown: the line would exceed " +
                          std::to_string(k_max_audit_line) + " bytes"};
  short_entry.waits.clear();
  shorten(short_entry.message, k_max_item);
  return dumped(short_entry);
}

} // namespace envlock::importer
