// PEP 440 versions (report/version.hpp): parsing never crashes, and the ordering keeps its laws on
// every pair and triple: antisymmetric (a < b exactly when b > a), transitive, consistent with
// equality (equal versions compare equal to the same others, and the normalized form parses back
// to an equal version), and version_text_less is a strict weak order. The input is up to three
// lines; a first byte 0x01 builds each line from a small grammar instead (numbers of any length
// with leading zeros, pre/post/dev parts, local labels), so that equal and nearly equal versions
// meet often.
#include "report/version.hpp"

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

using envlock::report::compare;
using envlock::report::PyVersion;

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

void check_pair(const PyVersion& a, const PyVersion& b) {
  const auto ab = compare(a, b);
  const auto ba = compare(b, a);
  require(std::is_lt(ab) == std::is_gt(ba));
  require(std::is_eq(ab) == std::is_eq(ba));
}

void check_triple(const PyVersion& a, const PyVersion& b, const PyVersion& c) {
  const auto ab = compare(a, b);
  const auto bc = compare(b, c);
  const auto ac = compare(a, c);
  if (std::is_lteq(ab) && std::is_lteq(bc)) {
    require(std::is_lteq(ac));
    require(!(std::is_lt(ab) || std::is_lt(bc)) || std::is_lt(ac));
  }
  if (std::is_eq(ab)) {
    require(compare(a, c) == compare(b, c)); // equal versions order the same against others
  }
}

void check_text_order(const std::string& a, const std::string& b, const std::string& c) {
  using envlock::report::version_text_less;
  require(!version_text_less(a, a));
  require(!(version_text_less(a, b) && version_text_less(b, a)));
  if (version_text_less(a, b) && version_text_less(b, c)) {
    require(version_text_less(a, c));
  }
  // Incomparability (neither is less) is transitive: here it means equal texts.
  if (!version_text_less(a, b) && !version_text_less(b, a)) {
    require(a == b);
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
    auto v = envlock::report::parse_py_version(text);
    if (!v) {
      continue;
    }
    require(std::is_eq(compare(*v, *v)));
    const auto again = envlock::report::parse_py_version(envlock::report::to_string(*v));
    require(again.has_value() && std::is_eq(compare(*again, *v)));
    require(envlock::report::to_string(*again) == envlock::report::to_string(*v));
    versions.push_back(std::move(*v));
  }
  for (const auto& a : versions) {
    for (const auto& b : versions) {
      check_pair(a, b);
      for (const auto& c : versions) {
        check_triple(a, b, c);
      }
    }
  }
  for (const auto& a : texts) {
    for (const auto& b : texts) {
      for (const auto& c : texts) {
        check_text_order(a, b, c);
      }
    }
  }
  return 0;
}
