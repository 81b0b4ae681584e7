#include "diff/version.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <cctype>

namespace envlock::diff {

namespace {

// Reads digits at `pos`; nothing when there are none.
std::optional<std::int64_t> read_number(std::string_view s, std::size_t& pos) {
  const std::size_t start = pos;
  std::int64_t n = 0;
  while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])) != 0) {
    if (n > (INT64_MAX - 9) / 10) {
      return std::nullopt;
    }
    n = n * 10 + (s[pos] - '0');
    ++pos;
  }
  return pos == start ? std::nullopt : std::optional<std::int64_t>(n);
}

// Consumes one of `words` at `pos` (after an optional separator); returns its index or -1.
int read_word(std::string_view s, std::size_t& pos, const std::vector<std::string_view>& words) {
  std::size_t at = pos;
  if (at < s.size() && (s[at] == '.' || s[at] == '-' || s[at] == '_')) {
    ++at;
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (s.substr(at, words[i].size()) == words[i]) {
      pos = at + words[i].size();
      return static_cast<int>(i);
    }
  }
  return -1;
}

// An optional separator and number after a pre/post/dev word ("rc.1", "post2", "dev").
std::int64_t read_implicit_number(std::string_view s, std::size_t& pos) {
  std::size_t at = pos;
  if (at < s.size() && (s[at] == '.' || s[at] == '-' || s[at] == '_')) {
    ++at;
  }
  if (auto n = read_number(s, at)) {
    pos = at;
    return *n;
  }
  return 0;
}

std::strong_ordering compare_local(const std::vector<std::string>& a,
                                   const std::vector<std::string>& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const bool a_num = std::all_of(a[i].begin(), a[i].end(), ::isdigit);
    const bool b_num = std::all_of(b[i].begin(), b[i].end(), ::isdigit);
    if (a_num && b_num) {
      const auto c = std::stoll(a[i]) <=> std::stoll(b[i]);
      if (std::is_neq(c)) {
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

} // namespace

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
  while (pos + 1 < s.size() && s[pos] == '.' &&
         std::isdigit(static_cast<unsigned char>(s[pos + 1])) != 0) {
    ++pos;
    v.release.push_back(*read_number(s, pos));
  }
  static const std::vector<std::string_view> k_pre = {"alpha", "beta", "preview", "pre",
                                                      "rc",    "a",    "b",       "c"};
  static const std::vector<int> k_pre_stage = {0, 1, 2, 2, 2, 0, 1, 2};
  if (const int w = read_word(s, pos, k_pre); w >= 0) {
    v.pre_stage = k_pre_stage[static_cast<std::size_t>(w)];
    v.pre_number = read_implicit_number(s, pos);
  }
  if (read_word(s, pos, {"post", "rev", "r"}) >= 0) {
    v.post = read_implicit_number(s, pos);
  } else if (pos + 1 < s.size() && s[pos] == '-' &&
             std::isdigit(static_cast<unsigned char>(s[pos + 1])) != 0) {
    ++pos;
    v.post = read_number(s, pos);
  }
  if (read_word(s, pos, {"dev"}) >= 0) {
    v.dev = read_implicit_number(s, pos);
  }
  if (pos < s.size() && s[pos] == '+') {
    const auto parts = util::split(s.substr(pos + 1), '.');
    for (const auto& p : parts) {
      if (p.empty()) {
        return std::nullopt;
      }
    }
    v.local = parts;
    pos = s.size();
  }
  if (pos != s.size()) {
    return std::nullopt;
  }
  return v;
}

std::strong_ordering compare(const PyVersion& a, const PyVersion& b) {
  if (const auto c = a.epoch <=> b.epoch; std::is_neq(c)) {
    return c;
  }
  const std::size_t n = std::max(a.release.size(), b.release.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t x = i < a.release.size() ? a.release[i] : 0;
    const std::int64_t y = i < b.release.size() ? b.release[i] : 0;
    if (const auto c = x <=> y; std::is_neq(c)) {
      return c;
    }
  }
  // A dev release of a final version sorts before its pre-releases: 1.0.dev0 < 1.0a0 < 1.0.
  auto pre_key = [](const PyVersion& v) {
    if (v.pre_stage == 3 && !v.post && v.dev) {
      return std::pair<int, std::int64_t>{-1, 0};
    }
    return std::pair<int, std::int64_t>{v.pre_stage, v.pre_number};
  };
  if (const auto c = pre_key(a) <=> pre_key(b); std::is_neq(c)) {
    return c;
  }
  if (const auto c = a.post.value_or(-1) <=> b.post.value_or(-1); std::is_neq(c)) {
    return c;
  }
  if (const auto c = a.dev.value_or(INT64_MAX) <=> b.dev.value_or(INT64_MAX); std::is_neq(c)) {
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

bool is_major_change(std::string_view a, std::string_view b) {
  const auto va = parse_py_version(a);
  const auto vb = parse_py_version(b);
  return va && vb && (va->epoch != vb->epoch || va->release.front() != vb->release.front());
}

} // namespace envlock::diff
