#include "uv/specifier.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <array>

namespace envlock::uv {

namespace {

constexpr std::array<std::string_view, 8> k_operators = {
    "===", "~=", "==", "!=", "<=", ">=", "<", ">"};

std::string without_spaces(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c != ' ' && c != '\t') {
      out += c;
    }
  }
  return out;
}

bool wildcard(const Specifier& s) {
  return s.version.size() >= 2 && s.version.compare(s.version.size() - 2, 2, ".*") == 0;
}

// The release segments of `version` padded with zeros to `length`.
std::vector<VersionNumber> padded(std::vector<VersionNumber> release, std::size_t length) {
  if (release.size() < length) {
    release.resize(length);
  }
  return release;
}

bool prefix_matches(const PyVersion& candidate, const PyVersion& prefix) {
  if (candidate.epoch != prefix.epoch) {
    return false;
  }
  const auto have = padded(candidate.release, prefix.release.size());
  return std::equal(prefix.release.begin(), prefix.release.end(), have.begin());
}

PyVersion without_local(PyVersion version) {
  version.local.clear();
  return version;
}

bool clause_holds(const PyVersion& candidate, const Specifier& s) {
  if (s.op == "===") {
    return to_string(candidate) == s.version;
  }
  if (wildcard(s)) {
    const auto prefix =
        parse_py_version(std::string_view(s.version).substr(0, s.version.size() - 2));
    if (!prefix) {
      return false;
    }
    const bool match = prefix_matches(candidate, *prefix);
    return s.op == "!=" ? !match : match;
  }
  const auto bound = parse_py_version(s.version);
  if (!bound) {
    return false;
  }
  // A local label counts only where the clause names one.
  const PyVersion v = bound->local.empty() ? without_local(candidate) : candidate;
  const auto order = compare(v, *bound);
  if (s.op == "==") {
    return order == std::strong_ordering::equal;
  }
  if (s.op == "!=") {
    return order != std::strong_ordering::equal;
  }
  if (s.op == "<=") {
    return order != std::strong_ordering::greater;
  }
  if (s.op == ">=") {
    return order != std::strong_ordering::less;
  }
  if (s.op == "<") {
    return order == std::strong_ordering::less;
  }
  if (s.op == ">") {
    return order == std::strong_ordering::greater;
  }
  // "~=X.Y.Z": >= X.Y.Z and the same X.Y.
  PyVersion prefix = *bound;
  if (prefix.release.size() > 1) {
    prefix.release.pop_back();
  }
  return order != std::strong_ordering::less && prefix_matches(v, prefix);
}

} // namespace

Result<std::vector<Specifier>> parse_specifiers(std::string_view text) {
  std::vector<Specifier> out;
  const std::string compact = without_spaces(text);
  if (compact.empty()) {
    return out;
  }
  for (const auto& clause : util::split(compact, ',')) {
    Specifier s;
    for (const auto op : k_operators) {
      if (clause.rfind(op, 0) == 0) {
        s.op = std::string(op);
        s.version = clause.substr(op.size());
        break;
      }
    }
    const bool wild = s.version.size() > 2 && s.version.compare(s.version.size() - 2, 2, ".*") == 0;
    const std::string_view number =
        wild ? std::string_view(s.version).substr(0, s.version.size() - 2) : s.version;
    const bool known = s.op == "===" ? !s.version.empty() : parse_py_version(number).has_value();
    if (s.op.empty() || !known || (wild && s.op != "==" && s.op != "!=")) {
      return input_error("'" + std::string(text) + "' is not a version specifier");
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string normal_form(const std::vector<Specifier>& specifiers) {
  std::vector<std::string> clauses;
  for (const auto& s : specifiers) {
    std::string version = s.version;
    if (s.op != "===" && !wildcard(s)) {
      if (const auto parsed = parse_py_version(s.version)) {
        version = to_string(*parsed);
      }
    }
    clauses.push_back(s.op + version);
  }
  std::sort(clauses.begin(), clauses.end());
  return util::join(clauses, ",");
}

bool satisfies(const PyVersion& version, const std::vector<Specifier>& specifiers) {
  return std::all_of(specifiers.begin(), specifiers.end(),
                     [&](const Specifier& s) { return clause_holds(version, s); });
}

} // namespace envlock::uv
