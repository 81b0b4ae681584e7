#include "formats/record.hpp"

#include "util/strings.hpp"

#include <algorithm>

namespace envlock::formats {

namespace {

bool is_lower_hex64(const std::string& text) {
  return text.size() == 64 && util::is_hex(text) && util::to_lower(text) == text;
}

} // namespace

void read_schema(util::FieldReader& r, const char* expected) {
  const std::string schema = r.str("schema");
  if (!r.error() && schema != expected) {
    r.fail("schema", "'" + schema + "' is not " + expected);
  }
}

std::string read_choice(util::FieldReader& r, const char* key,
                        const std::vector<std::string>& allowed) {
  std::string text = r.str(key);
  if (!r.error() && std::find(allowed.begin(), allowed.end(), text) == allowed.end()) {
    r.fail(r.join(key), "'" + text + "' is not one of " + util::join(allowed, ", "));
  }
  return text;
}

void check_digest(util::FieldReader& r, const char* key, const std::string& text, Empty empty) {
  if (r.error() || (text.empty() && empty == Empty::allowed)) {
    return;
  }
  if (!text.starts_with("sha256:") || !is_lower_hex64(text.substr(7))) {
    r.fail(r.join(key), "must be sha256:<64 hex>, not '" + text + "'");
  }
}

void check_sha256(util::FieldReader& r, const char* key, const std::string& text, Empty empty) {
  if (r.error() || (text.empty() && empty == Empty::allowed)) {
    return;
  }
  if (!is_lower_hex64(text)) {
    r.fail(r.join(key), "must be 64 lowercase hex digits, not '" + text + "'");
  }
}

} // namespace envlock::formats
