#include "uv/fast_reader.hpp"

#include "uv/toml_cursor.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace envlock::uv {

namespace {

// Where the keys being read go.
enum class Scope { top, package, package_source, ignored };

// uv nests arrays and inline tables a few levels deep; anything deeper is left to the general
// reader, which refuses it, instead of recursing without bound here.
constexpr int k_max_nesting = 16;

// Counts one level of nesting for as long as it lives.
struct NestingLevel {
  explicit NestingLevel(int& depth) : m_depth(depth) { ++m_depth; }
  NestingLevel(const NestingLevel&) = delete;
  NestingLevel& operator=(const NestingLevel&) = delete;
  ~NestingLevel() { --m_depth; }

private:
  int& m_depth;
};

class Reader : private TomlCursor {
public:
  explicit Reader(std::string_view text) : TomlCursor(text) {}

  bool read_document() {
    while (!at_end()) {
      skip_blank();
      if (at_end()) {
        break;
      }
      const char c = peek();
      if (c == '\n' || c == '\r' || c == '#') {
        if (!end_of_line()) {
          return false;
        }
      } else if (c == '[') {
        if (!read_header()) {
          return false;
        }
      } else if (!read_key_value(m_scope, m_keys)) {
        return false;
      }
    }
    return true;
  }

  RawLock& result() { return m_lock; }

private:
  bool read_header() {
    ++m_pos;
    const bool array = peek() == '[';
    if (array) {
      ++m_pos;
    }
    const std::string_view path = read_dotted_key();
    if (path.empty() || peek() != ']') {
      return false;
    }
    ++m_pos;
    if (array) {
      if (peek() != ']') {
        return false;
      }
      ++m_pos;
    }
    if (!end_of_line()) {
      return false;
    }
    m_keys.clear();
    const bool in_package = path.starts_with("package.");
    if (names_a_key(path) || (array && in_package)) {
      return false;
    }
    m_table = path;
    if (path == "package") {
      if (!array) {
        return false;
      }
      m_lock.packages.emplace_back();
      m_package_headers.clear();
      m_package_defined.clear();
      m_scope = Scope::package;
      return true;
    }
    if (in_package && m_lock.packages.empty()) {
      return false;
    }
    m_scope = Scope::ignored;
    const auto listed = [&](const std::vector<std::string_view>& seen) {
      return std::find(seen.begin(), seen.end(), path) != seen.end();
    };
    const auto below = [&](const std::vector<std::string_view>& seen) {
      return std::any_of(seen.begin(), seen.end(), [&](std::string_view header) {
        return header.size() > path.size() && header.starts_with(path) &&
               header[path.size()] == '.';
      });
    };
    // [a] twice, [a] and [[a]] in either order, or a first [[a]] after [a.b] or [[a.b]] made
    // `a` a table: errors the general reader reports.
    if (listed(in_package ? m_package_headers : m_headers) || (!array && listed(m_array_headers)) ||
        (array && !listed(m_array_headers) && (below(m_headers) || below(m_array_headers)))) {
      return false;
    }
    if (!array) {
      (in_package ? m_package_headers : m_headers).push_back(path);
    } else if (std::find(m_array_headers.begin(), m_array_headers.end(), path) ==
               m_array_headers.end()) {
      m_array_headers.push_back(path);
    }
    return true;
  }

  // Whether `path` or a table above it was given a value by a `key = value` line, which TOML
  // forbids ([a] after a = 1); the general reader reports it.
  [[nodiscard]] bool names_a_key(std::string_view path) const {
    for (std::size_t dot = 0; dot != std::string_view::npos;) {
      dot = path.find('.', dot + 1);
      const std::string_view prefix = path.substr(0, dot);
      const auto& defined = prefix.starts_with("package.") ? m_package_defined : m_defined;
      if (std::find(defined.begin(), defined.end(), prefix) != defined.end()) {
        return true;
      }
    }
    return false;
  }

  // Whether a [header] already made `path` (or a table below it) a table.
  [[nodiscard]] bool names_a_table(const std::string& path) const {
    const auto below = [&](std::string_view header) {
      return header == path || (header.starts_with(path) && header[path.size()] == '.');
    };
    return std::any_of(m_headers.begin(), m_headers.end(), below) ||
           std::any_of(m_package_headers.begin(), m_package_headers.end(), below) ||
           std::any_of(m_array_headers.begin(), m_array_headers.end(), below);
  }

  // key = value, then the end of the line.
  bool read_key_value(Scope scope, std::vector<std::string_view>& keys) {
    if (!read_assignment(scope, keys)) {
      return false;
    }
    std::string path = m_table.empty() ? std::string(keys.back())
                                       : std::string(m_table) + "." + std::string(keys.back());
    if (names_a_table(path)) {
      return false;
    }
    auto& defined = path.starts_with("package.") ? m_package_defined : m_defined;
    defined.push_back(std::move(path));
    return end_of_line();
  }

  bool read_assignment(Scope scope, std::vector<std::string_view>& keys) {
    const std::string_view key = read_bare_key();
    if (key.empty()) {
      return false;
    }
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
      return false;
    }
    keys.push_back(key);
    skip_blank();
    if (peek() != '=') {
      return false;
    }
    ++m_pos;
    skip_blank();
    return read_value(scope, key);
  }

  bool read_value(Scope scope, std::string_view key) {
    const char c = peek();
    if ((c == '[' || c == '{') && m_depth >= k_max_nesting) {
      return false;
    }
    if (c == '"' || c == '\'') {
      std::string_view text;
      bool escaped = false;
      if (!read_string(text, escaped)) {
        return false;
      }
      return record_string(scope, key, text, escaped);
    }
    if (c == '[') {
      return !is_recorded(scope, key) && read_array();
    }
    if (c == '{') {
      if (scope == Scope::package && key == "source") {
        m_lock.packages.back().has_source = true;
        return read_inline_table(Scope::package_source);
      }
      return !is_recorded(scope, key) && read_inline_table(Scope::ignored);
    }
    if (c == 't' || c == 'f') {
      const std::string_view word = c == 't' ? "true" : "false";
      if (m_text.substr(m_pos, word.size()) != word) {
        return false;
      }
      m_pos += word.size();
      return !is_recorded(scope, key) && ends_value();
    }
    return read_integer(scope, key);
  }

  // Keys whose value envlock records must have the type it expects; otherwise give up.
  [[nodiscard]] static bool is_recorded(Scope scope, std::string_view key) {
    if (scope == Scope::top) {
      return key == "version" || key == "revision" || key == "requires-python" || key == "package";
    }
    if (scope == Scope::package) {
      return key == "name" || key == "version" || key == "source";
    }
    return false;
  }

  bool record_string(Scope scope, std::string_view key, std::string_view text, bool escaped) {
    if (scope == Scope::top) {
      if (key == "requires-python" && !escaped) {
        m_lock.requires_python = std::string(text);
        return true;
      }
      return !is_recorded(scope, key);
    }
    if (scope == Scope::package) {
      auto& package = m_lock.packages.back();
      if (escaped && is_recorded(scope, key)) {
        return false;
      }
      if (key == "name") {
        package.name = std::string(text);
      } else if (key == "version") {
        package.version = std::string(text);
      } else if (key == "source") {
        return false;
      }
      return true;
    }
    if (scope == Scope::package_source) {
      if (escaped) {
        return false;
      }
      m_lock.packages.back().source_keys.emplace_back(std::string(key), std::string(text));
    }
    return true;
  }

  bool read_integer(Scope scope, std::string_view key) {
    std::int64_t value = 0;
    if (!read_int(value)) {
      return false;
    }
    if (scope == Scope::top && key == "version") {
      m_lock.version = value;
      return true;
    }
    if (scope == Scope::top && key == "revision") {
      m_lock.revision = value;
      return true;
    }
    return !is_recorded(scope, key);
  }

  bool read_array() {
    const NestingLevel level(m_depth);
    ++m_pos;
    for (;;) {
      if (!skip_array_space()) {
        return false;
      }
      if (peek() == ']') {
        ++m_pos;
        return true;
      }
      if (!read_value(Scope::ignored, {})) {
        return false;
      }
      if (!skip_array_space()) {
        return false;
      }
      if (peek() == ',') {
        ++m_pos;
      } else if (peek() != ']') {
        return false;
      }
    }
  }

  bool read_inline_table(Scope scope) {
    const NestingLevel level(m_depth);
    ++m_pos;
    std::vector<std::string_view> keys;
    skip_blank();
    if (peek() == '}') {
      ++m_pos;
      return true;
    }
    for (;;) {
      skip_blank();
      if (!read_assignment(scope, keys)) {
        return false;
      }
      skip_blank();
      if (peek() == '}') {
        ++m_pos;
        return true;
      }
      if (peek() != ',') {
        return false;
      }
      ++m_pos;
    }
  }

  RawLock m_lock;
  Scope m_scope = Scope::top;
  int m_depth = 0;
  std::vector<std::string_view> m_keys;            // keys of the current table
  std::vector<std::string_view> m_headers;         // [table] headers seen outside packages
  std::vector<std::string_view> m_package_headers; // [package.x] headers of this package
  std::vector<std::string_view> m_array_headers;   // [[table]] headers seen
  std::string_view m_table;                        // the current table's path; empty at the top
  std::vector<std::string> m_defined;         // a.b of every `b = ...` in [a], outside packages
  std::vector<std::string> m_package_defined; // the same within this package
};

} // namespace

std::optional<RawLock> read_fast(std::string_view text) {
  Reader reader(text);
  if (!reader.read_document()) {
    return std::nullopt;
  }
  return std::move(reader.result());
}

} // namespace envlock::uv
