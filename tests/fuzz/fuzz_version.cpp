// PEP 440 versions (uv/version.hpp): parsing never crashes, and the ordering keeps its laws on
// every pair and triple: antisymmetric (a < b exactly when b > a), transitive, consistent with
// equality (equal versions compare equal to the same others, and the normalized form parses back
// to an equal version), and version_text_less is a strict weak order. The input is up to three
// lines; a first byte 0x01 builds each line from a small grammar instead (numbers of any length
// with leading zeros, pre/post/dev parts, local labels), so that equal and nearly equal versions
// meet often.
#include "uv/version.hpp"

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace {

using envlock::uv::compare;
using envlock::uv::PyVersion;

void require(bool law) {
  if (!law) {
    std::abort();
  }
}

// Bytes -> a version text from a small grammar.
class Grammar {
public:
  Grammar(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}
  [[nodiscard]] bool done() const { return m_at >= m_size; }
  std::string version() {
    static constexpr std::array<std::string_view, 10> numbers = {"0",
                                                                 "00",
                                                                 "1",
                                                                 "01",
                                                                 "2",
                                                                 "10",
                                                                 "9",
                                                                 "18446744073709551616",
                                                                 "99999999999999999999",
                                                                 "000000000000000000000000000001"};
    static constexpr std::array<std::string_view, 12> parts = {
        "", "a", "b", "rc", "c", ".post", "-", ".dev", "alpha", "pre", "r", "_dev"};
    static constexpr std::array<std::string_view, 8> locals = {
        "", "+abc", "+1", "+01.x", "+abc.2", "+ubuntu-1", "+18446744073709551617", "+a_b"};
    std::string out;
    if (next() % 5 == 0) {
      out += std::string(pick(numbers)) + "!";
    }
    const int segments = 1 + next() % 4;
    for (int i = 0; i < segments; ++i) {
      out += (i == 0 ? "" : ".") + std::string(pick(numbers));
    }
    for (int i = next() % 3; i > 0; --i) {
      out += pick(parts);
      if (next() % 2 == 0) {
        out += pick(numbers);
      }
    }
    out += pick(locals);
    return out;
  }

private:
  int next() { return m_at < m_size ? m_data[m_at++] : 0; }
  template <std::size_t N> std::string_view pick(const std::array<std::string_view, N>& from) {
    return from[static_cast<std::size_t>(next()) % N];
  }
  const std::uint8_t* m_data;
  std::size_t m_size;
  std::size_t m_at = 0;
};

std::vector<std::string> texts_of(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> out;
  if (size > 0 && data[0] == 0x01) {
    Grammar grammar(data + 1, size - 1);
    while (out.size() < 3 && !grammar.done()) {
      out.push_back(grammar.version());
    }
    return out;
  }
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  while (out.size() < 3) {
    const auto nl = rest.find('\n');
    out.emplace_back(rest.substr(0, nl));
    if (nl == std::string_view::npos) {
      break;
    }
    rest.remove_prefix(nl + 1);
  }
  return out;
}

// cmp[i][j] = compare(v[i], v[j]), each pair computed once.
using Matrix = std::vector<std::vector<std::strong_ordering>>;

void check_laws(const Matrix& cmp) {
  const std::size_t n = cmp.size();
  for (std::size_t a = 0; a < n; ++a) {
    require(std::is_eq(cmp[a][a]));
    for (std::size_t b = 0; b < n; ++b) {
      require(std::is_lt(cmp[a][b]) == std::is_gt(cmp[b][a])); // antisymmetric
      require(std::is_eq(cmp[a][b]) == std::is_eq(cmp[b][a]));
      for (std::size_t c = 0; c < n; ++c) {
        if (std::is_lteq(cmp[a][b]) && std::is_lteq(cmp[b][c])) { // transitive
          require(std::is_lteq(cmp[a][c]));
          require(!(std::is_lt(cmp[a][b]) || std::is_lt(cmp[b][c])) || std::is_lt(cmp[a][c]));
        }
        if (std::is_eq(cmp[a][b])) { // equal versions order the same against others
          require(cmp[a][c] == cmp[b][c]);
        }
      }
    }
  }
}

// less[i][j] = version_text_less(t[i], t[j]): a strict weak order whose only ties are equal texts.
void check_text_order(const std::vector<std::string>& texts) {
  const std::size_t n = texts.size();
  std::vector<std::vector<bool>> less(n, std::vector<bool>(n));
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      less[a][b] = envlock::uv::version_text_less(texts[a], texts[b]);
    }
  }
  for (std::size_t a = 0; a < n; ++a) {
    require(!less[a][a]);
    for (std::size_t b = 0; b < n; ++b) {
      require(!(less[a][b] && less[b][a]));
      require(less[a][b] || less[b][a] || texts[a] == texts[b]);
      for (std::size_t c = 0; c < n; ++c) {
        require(!(less[a][b] && less[b][c]) || less[a][c]);
      }
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) {
    return 0;
  }
  const std::vector<std::string> texts = texts_of(data, size);
  std::vector<PyVersion> versions;
  for (const auto& text : texts) {
    auto v = envlock::uv::parse_py_version(text);
    if (!v) {
      continue;
    }
    require(std::is_eq(compare(*v, *v)));
    const auto again = envlock::uv::parse_py_version(envlock::uv::to_string(*v));
    require(again.has_value() && std::is_eq(compare(*again, *v)));
    require(envlock::uv::to_string(*again) == envlock::uv::to_string(*v));
    versions.push_back(std::move(*v));
  }
  Matrix cmp(versions.size(),
             std::vector<std::strong_ordering>(versions.size(), std::strong_ordering::equal));
  for (std::size_t i = 0; i < versions.size(); ++i) {
    for (std::size_t j = 0; j < versions.size(); ++j) {
      cmp[i][j] = compare(versions[i], versions[j]);
    }
  }
  check_laws(cmp);
  check_text_order(texts);
  return 0;
}
