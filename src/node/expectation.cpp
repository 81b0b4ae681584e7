#include "node/expectation.hpp"

#include "util/strings.hpp"

#include <array>
#include <cctype>
#include <optional>
#include <vector>

namespace envlock::node {

namespace {

bool glob_match(std::string_view text, std::string_view pattern) {
  std::size_t t = 0;
  std::size_t p = 0;
  std::size_t star = std::string_view::npos;
  std::size_t mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++t;
      ++p;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') {
    ++p;
  }
  return p == pattern.size();
}

// The numeric dot-separated prefix: "6.8.0-45-generic" -> {6, 8, 0}; nothing without a digit.
std::optional<std::vector<long long>> numeric_prefix(std::string_view text) {
  std::vector<long long> out;
  std::size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
    long long n = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
      n = n * 10 + (text[i] - '0');
      if (n > 1'000'000'000'000LL) {
        return std::nullopt;
      }
      ++i;
    }
    out.push_back(n);
    if (i + 1 < text.size() && text[i] == '.' &&
        std::isdigit(static_cast<unsigned char>(text[i + 1])) != 0) {
      ++i;
    } else {
      break;
    }
  }
  if (out.empty()) {
    return std::nullopt;
  }
  return out;
}

int compare_numeric(const std::vector<long long>& a, const std::vector<long long>& b) {
  for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    const long long x = i < a.size() ? a[i] : 0;
    const long long y = i < b.size() ? b[i] : 0;
    if (x != y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}

bool is_comparison(std::string_view spec) {
  return !spec.empty() && (spec.front() == '<' || spec.front() == '>' ||
                           spec.substr(0, 2) == "==" || spec.substr(0, 2) == "!=");
}

Result<bool> one_comparison(std::string_view value, std::string_view part) {
  static constexpr std::array<std::string_view, 6> k_ops = {">=", "<=", "==", "!=", ">", "<"};
  for (const auto op : k_ops) {
    if (part.substr(0, op.size()) != op) {
      continue;
    }
    const std::string_view bound = util::trim(part.substr(op.size()));
    const auto b = numeric_prefix(bound);
    if (!b || b->size() != util::split(bound, '.').size()) {
      return input_error("'" + std::string(part) + "': '" + std::string(bound) +
                         "' is not a version");
    }
    const auto v = numeric_prefix(value);
    if (!v) {
      return false;
    }
    const int c = compare_numeric(*v, *b);
    if (op == ">=") {
      return c >= 0;
    }
    if (op == "<=") {
      return c <= 0;
    }
    if (op == "==") {
      return c == 0;
    }
    if (op == "!=") {
      return c != 0;
    }
    return op == ">" ? c > 0 : c < 0;
  }
  return input_error("'" + std::string(part) + "': expected >=, <=, >, <, == or !=");
}

} // namespace

Result<bool> matches_spec(std::string_view value, std::string_view spec_text) {
  const std::string_view spec = util::trim(spec_text);
  if (!is_comparison(spec)) {
    return glob_match(value, spec);
  }
  bool all = true;
  for (const auto& part : util::split(spec, ',')) {
    ENVLOCK_TRY_ASSIGN(const bool ok, one_comparison(value, util::trim(part)));
    all = all && ok;
  }
  return all;
}

Result<bool> matches_expectation(std::string_view value, const lock::HostExpectation& expectation) {
  bool any = false;
  for (const auto& entry : expectation.entries) {
    if (entry.number) {
      any = any || value == entry.text;
      continue;
    }
    ENVLOCK_TRY_ASSIGN(const bool ok, matches_spec(value, entry.text));
    any = any || ok;
  }
  return any;
}

std::string expectation_text(const lock::HostExpectation& expectation) {
  std::vector<std::string> parts;
  for (const auto& entry : expectation.entries) {
    parts.push_back(entry.text);
  }
  return util::join(parts, " or ");
}

} // namespace envlock::node
