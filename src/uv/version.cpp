#include "uv/version.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <array>

namespace envlock::uv {

namespace {

bool is_version_digit(char c) {
  return c >= '0' && c <= '9';
}

bool is_separator(char c) {
  return c == '.' || c == '-' || c == '_';
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_version_digit);
}

VersionNumber number_of(std::string_view digits) {
  const auto first = digits.find_first_not_of('0');
  return VersionNumber{first == std::string_view::npos ? std::string()
                                                       : std::string(digits.substr(first))};
}

// Reads digits at `pos`; nothing when there are none.
std::optional<VersionNumber> read_number(std::string_view s, std::size_t& pos) {
  const std::size_t start = pos;
  while (pos < s.size() && is_version_digit(s[pos])) {
    ++pos;
  }
  if (pos == start) {
    return std::nullopt;
  }
  return number_of(s.substr(start, pos - start));
}

struct Word {
  std::string_view text;
  int value;
};

// Consumes one of `words` at `pos` (after an optional separator); returns its value or -1.
template <std::size_t N>
int read_word(std::string_view s, std::size_t& pos, const std::array<Word, N>& words) {
  std::size_t at = pos;
  if (at < s.size() && is_separator(s[at])) {
    ++at;
  }
  for (const auto& w : words) {
    if (s.substr(at, w.text.size()) == w.text) {
      pos = at + w.text.size();
      return w.value;
    }
  }
  return -1;
}

// An optional separator and number after a pre/post/dev word ("rc.1", "post2", "dev": 0).
VersionNumber read_implicit_number(std::string_view s, std::size_t& pos) {
  std::size_t at = pos;
  if (at < s.size() && is_separator(s[at])) {
    ++at;
  }
  if (auto n = read_number(s, at)) {
    pos = at;
    return *n;
  }
  return {};
}

// PEP 440 local segments: numeric ones compare as numbers and sort after alphanumeric ones.
std::strong_ordering compare_local(const std::vector<std::string>& a,
                                   const std::vector<std::string>& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const bool a_num = all_digits(a[i]);
    const bool b_num = all_digits(b[i]);
    if (a_num && b_num) {
      if (const auto c = number_of(a[i]) <=> number_of(b[i]); std::is_neq(c)) {
        return c;
      }
    } else if (a_num != b_num) {
      return a_num ? std::strong_ordering::greater : std::strong_ordering::less;
    } else if (const auto c = a[i].compare(b[i]); c != 0) {
      return c < 0 ? std::strong_ordering::less : std::strong_ordering::greater;
    }
  }
  return a.size() <=> b.size();
}

// The local label after '+': segments of [a-z0-9] separated by '.', '-' or '_'.
std::optional<std::vector<std::string>> read_local(std::string_view s) {
  std::vector<std::string> parts(1);
  for (const char c : s) {
    if (is_separator(c)) {
      parts.emplace_back();
    } else if (is_version_digit(c) || (c >= 'a' && c <= 'z')) {
      parts.back() += c;
    } else {
      return std::nullopt;
    }
  }
  if (std::any_of(parts.begin(), parts.end(), [](const auto& p) { return p.empty(); })) {
    return std::nullopt;
  }
  return parts;
}

const std::string& shown(const VersionNumber& n) {
  static const std::string zero = "0";
  return n.digits.empty() ? zero : n.digits;
}

} // namespace

std::strong_ordering VersionNumber::operator<=>(const VersionNumber& other) const {
  if (const auto c = digits.size() <=> other.digits.size(); std::is_neq(c)) {
    return c;
  }
  const int c = digits.compare(other.digits);
  return c < 0 ? std::strong_ordering::less
               : (c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal);
}

std::optional<VersionNumber> parse_version_number(std::string_view text) {
  if (!all_digits(text)) {
    return std::nullopt;
  }
  return number_of(text);
}

std::optional<PyVersion> parse_py_version(std::string_view text) {
  const std::string lower = util::to_lower(util::trim(text));
  std::string_view s = lower;
  if (!s.empty() && s.front() == 'v') {
    s.remove_prefix(1);
  }
  PyVersion v;
  std::size_t pos = 0;
  auto first = read_number(s, pos);
  if (!first) {
    return std::nullopt;
  }
  if (pos < s.size() && s[pos] == '!') {
    v.epoch = *first;
    ++pos;
    first = read_number(s, pos);
    if (!first) {
      return std::nullopt;
    }
  }
  v.release.push_back(*first);
  while (pos + 1 < s.size() && s[pos] == '.' && is_version_digit(s[pos + 1])) {
    ++pos;
    v.release.push_back(*read_number(s, pos));
  }
  static constexpr std::array<Word, 8> k_pre = {{{"alpha", 0},
                                                 {"beta", 1},
                                                 {"preview", 2},
                                                 {"pre", 2},
                                                 {"rc", 2},
                                                 {"a", 0},
                                                 {"b", 1},
                                                 {"c", 2}}};
  static constexpr std::array<Word, 3> k_post = {{{"post", 0}, {"rev", 0}, {"r", 0}}};
  static constexpr std::array<Word, 1> k_dev = {{{"dev", 0}}};
  if (const int stage = read_word(s, pos, k_pre); stage >= 0) {
    v.pre_stage = stage;
    v.pre_number = read_implicit_number(s, pos);
  }
  if (read_word(s, pos, k_post) >= 0) {
    v.post = read_implicit_number(s, pos);
  } else if (pos + 1 < s.size() && s[pos] == '-' && is_version_digit(s[pos + 1])) {
    ++pos;
    v.post = read_number(s, pos);
  }
  if (read_word(s, pos, k_dev) >= 0) {
    v.dev = read_implicit_number(s, pos);
  }
  if (pos < s.size() && s[pos] == '+') {
    auto local = read_local(s.substr(pos + 1));
    if (!local) {
      return std::nullopt;
    }
    v.local = std::move(*local);
    pos = s.size();
  }
  if (pos != s.size()) {
    return std::nullopt;
  }
  return v;
}

std::string to_string(const PyVersion& v) {
  std::string out;
  if (!v.epoch.digits.empty()) {
    out = v.epoch.digits + "!";
  }
  for (std::size_t i = 0; i < v.release.size(); ++i) {
    out += (i == 0 ? "" : ".") + shown(v.release[i]);
  }
  static constexpr std::array<const char*, 3> k_stage = {"a", "b", "rc"};
  if (v.pre_stage >= 0 && v.pre_stage < 3) {
    out += k_stage[static_cast<std::size_t>(v.pre_stage)] + shown(v.pre_number);
  }
  if (v.post) {
    out += ".post" + shown(*v.post);
  }
  if (v.dev) {
    out += ".dev" + shown(*v.dev);
  }
  if (!v.local.empty()) {
    out += "+" + util::join(v.local, ".");
  }
  return out;
}

std::strong_ordering compare(const PyVersion& a, const PyVersion& b) {
  if (const auto c = a.epoch <=> b.epoch; std::is_neq(c)) {
    return c;
  }
  const std::size_t n = std::max(a.release.size(), b.release.size());
  const VersionNumber zero;
  for (std::size_t i = 0; i < n; ++i) {
    const VersionNumber& x = i < a.release.size() ? a.release[i] : zero;
    const VersionNumber& y = i < b.release.size() ? b.release[i] : zero;
    if (const auto c = x <=> y; std::is_neq(c)) {
      return c;
    }
  }
  // A dev release of a final version sorts before its pre-releases: 1.0.dev0 < 1.0a0 < 1.0.
  const auto stage = [](const PyVersion& v) {
    return v.pre_stage == 3 && !v.post && v.dev ? -1 : v.pre_stage;
  };
  if (const auto c = stage(a) <=> stage(b); std::is_neq(c)) {
    return c;
  }
  if (stage(a) >= 0 && stage(a) < 3) {
    if (const auto c = a.pre_number <=> b.pre_number; std::is_neq(c)) {
      return c;
    }
  }
  // No post-release sorts first; no dev-release sorts last (std::optional orders nothing first).
  if (const auto c = a.post <=> b.post; std::is_neq(c)) {
    return c;
  }
  if (a.dev.has_value() != b.dev.has_value()) {
    return a.dev ? std::strong_ordering::less : std::strong_ordering::greater;
  }
  if (const auto c = a.dev <=> b.dev; std::is_neq(c)) {
    return c;
  }
  return compare_local(a.local, b.local);
}

std::optional<std::strong_ordering> compare_versions(std::string_view a, std::string_view b) {
  const auto va = parse_py_version(a);
  const auto vb = parse_py_version(b);
  if (!va || !vb) {
    return std::nullopt;
  }
  return compare(*va, *vb);
}

bool version_text_less(std::string_view a, std::string_view b) {
  const auto va = parse_py_version(a);
  const auto vb = parse_py_version(b);
  if (va.has_value() != vb.has_value()) {
    return va.has_value();
  }
  if (va) {
    if (const auto c = compare(*va, *vb); std::is_neq(c)) {
      return std::is_lt(c);
    }
  }
  return a < b;
}

bool is_major_change(std::string_view a, std::string_view b) {
  const auto va = parse_py_version(a);
  const auto vb = parse_py_version(b);
  return va && vb && (va->epoch != vb->epoch || va->release.front() != vb->release.front());
}

} // namespace envlock::uv
