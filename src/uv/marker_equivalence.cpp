#include "uv/marker_equivalence.hpp"

#include "uv/requirement.hpp"
#include "uv/specifier.hpp"

#include <algorithm>
#include <cctype>
#include <compare>
#include <functional>
#include <map>
#include <set>

namespace envlock::uv {

// An atom holds where the variable's value lies in one of `intervals` (xor `negate`); an opaque
// atom (substring tests, "===", a value that is not a version) is an independent truth value,
// keyed by its text.
struct MarkerEnd {
  bool unbounded = true;
  bool inclusive = false;
  std::string text;             // string variables
  std::optional<PyVersion> ver; // version variables
};

struct MarkerInterval {
  MarkerEnd lo;
  MarkerEnd hi;
};

struct MarkerNode {
  enum class Kind { all, any, negation, atom, opaque } kind = Kind::atom;
  std::vector<std::shared_ptr<const MarkerNode>> children;
  std::string variable;
  bool version = false;
  std::vector<MarkerInterval> intervals;
  bool negate = false;
  std::string key; // opaque
};

namespace equivalence_detail {
namespace {

using NodePtr = std::shared_ptr<const MarkerNode>;

// uv's marker variables (PEP 508's, with the old dotted names as aliases); python_version is
// kept as a range of python_full_version.
std::optional<std::string> canonical_variable(std::string_view name) {
  static const std::map<std::string, std::string, std::less<>> names = {
      {"python_version", "python_version"},
      {"python_full_version", "python_full_version"},
      {"implementation_version", "implementation_version"},
      {"os_name", "os_name"},
      {"os.name", "os_name"},
      {"sys_platform", "sys_platform"},
      {"sys.platform", "sys_platform"},
      {"platform_release", "platform_release"},
      {"platform_system", "platform_system"},
      {"platform_version", "platform_version"},
      {"platform.version", "platform_version"},
      {"platform_machine", "platform_machine"},
      {"platform.machine", "platform_machine"},
      {"platform_python_implementation", "platform_python_implementation"},
      {"platform.python_implementation", "platform_python_implementation"},
      {"python_implementation", "platform_python_implementation"},
      {"implementation_name", "implementation_name"},
      {"extra", "extra"},
  };
  const auto found = names.find(name);
  if (found == names.end()) {
    return std::nullopt;
  }
  return found->second;
}

bool is_version_variable(const std::string& v) {
  return v == "python_version" || v == "python_full_version" || v == "implementation_version";
}

struct Token {
  enum class Kind { name, string, op, open, close, end } kind = Kind::end;
  std::string text;
};

class Parser {
public:
  explicit Parser(std::string_view text) : m_text(text) {}

  Result<NodePtr> parse() {
    ENVLOCK_TRY(advance());
    ENVLOCK_TRY_ASSIGN(auto node, parse_or());
    if (m_token.kind != Token::Kind::end) {
      return fail("unexpected '" + m_token.text + "'");
    }
    return node;
  }

private:
  Error fail(const std::string& reason) const {
    return input_error("'" + std::string(m_text) + "' is not a PEP 508 marker: " + reason);
  }

  Status advance() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])) != 0) {
      ++m_pos;
    }
    if (m_pos >= m_text.size()) {
      m_token = {Token::Kind::end, ""};
      return {};
    }
    const char c = m_text[m_pos];
    if (c == '(' || c == ')') {
      m_token = {c == '(' ? Token::Kind::open : Token::Kind::close, std::string(1, c)};
      ++m_pos;
      return {};
    }
    if (c == '\'' || c == '"') {
      const auto end = m_text.find(c, m_pos + 1);
      if (end == std::string_view::npos) {
        return fail("a string without its closing quote");
      }
      m_token = {Token::Kind::string, std::string(m_text.substr(m_pos + 1, end - m_pos - 1))};
      m_pos = end + 1;
      return {};
    }
    for (const std::string_view op : {"===", "==", "!=", "<=", ">=", "~=", "<", ">"}) {
      if (m_text.substr(m_pos, op.size()) == op) {
        m_token = {Token::Kind::op, std::string(op)};
        m_pos += op.size();
        return {};
      }
    }
    std::size_t end = m_pos;
    while (end < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[end])) != 0 ||
                                   m_text[end] == '_' || m_text[end] == '.')) {
      ++end;
    }
    if (end == m_pos) {
      return fail("unexpected '" + std::string(1, c) + "'");
    }
    m_token = {Token::Kind::name, std::string(m_text.substr(m_pos, end - m_pos))};
    m_pos = end;
    return {};
  }

  Result<NodePtr> parse_or() {
    ENVLOCK_TRY_ASSIGN(auto first, parse_and());
    if (!(m_token.kind == Token::Kind::name && m_token.text == "or")) {
      return first;
    }
    auto node = std::make_shared<MarkerNode>();
    node->kind = MarkerNode::Kind::any;
    node->children.push_back(first);
    while (m_token.kind == Token::Kind::name && m_token.text == "or") {
      ENVLOCK_TRY(advance());
      ENVLOCK_TRY_ASSIGN(auto next, parse_and());
      node->children.push_back(next);
    }
    return NodePtr(node);
  }

  Result<NodePtr> parse_and() {
    ENVLOCK_TRY_ASSIGN(auto first, parse_atom());
    if (!(m_token.kind == Token::Kind::name && m_token.text == "and")) {
      return first;
    }
    auto node = std::make_shared<MarkerNode>();
    node->kind = MarkerNode::Kind::all;
    node->children.push_back(first);
    while (m_token.kind == Token::Kind::name && m_token.text == "and") {
      ENVLOCK_TRY(advance());
      ENVLOCK_TRY_ASSIGN(auto next, parse_atom());
      node->children.push_back(next);
    }
    return NodePtr(node);
  }

  struct Operand {
    bool variable = false;
    std::string text;
  };

  Result<Operand> operand() {
    if (m_token.kind == Token::Kind::string) {
      Operand out{false, m_token.text};
      ENVLOCK_TRY(advance());
      return out;
    }
    if (m_token.kind == Token::Kind::name) {
      const auto name = canonical_variable(m_token.text);
      if (!name) {
        return fail("unknown variable '" + m_token.text + "'");
      }
      Operand out{true, *name};
      ENVLOCK_TRY(advance());
      return out;
    }
    return fail("a variable or a quoted string expected");
  }

  Result<std::string> comparison() {
    if (m_token.kind == Token::Kind::op) {
      std::string op = m_token.text;
      ENVLOCK_TRY(advance());
      return op;
    }
    if (m_token.kind == Token::Kind::name && m_token.text == "in") {
      ENVLOCK_TRY(advance());
      return std::string("in");
    }
    if (m_token.kind == Token::Kind::name && m_token.text == "not") {
      ENVLOCK_TRY(advance());
      if (!(m_token.kind == Token::Kind::name && m_token.text == "in")) {
        return fail("'not' without 'in'");
      }
      ENVLOCK_TRY(advance());
      return std::string("not in");
    }
    return fail("a comparison operator expected");
  }

  Result<NodePtr> parse_atom() {
    if (m_token.kind == Token::Kind::open) {
      if (++m_depth > k_max_depth) {
        return fail("more than 64 nested parentheses");
      }
      ENVLOCK_TRY(advance());
      ENVLOCK_TRY_ASSIGN(auto inner, parse_or());
      if (m_token.kind != Token::Kind::close) {
        return fail("'(' without ')'");
      }
      ENVLOCK_TRY(advance());
      --m_depth;
      return inner;
    }
    ENVLOCK_TRY_ASSIGN(auto left, operand());
    ENVLOCK_TRY_ASSIGN(auto op, comparison());
    ENVLOCK_TRY_ASSIGN(auto right, operand());
    return make_atom(left, op, right);
  }

  static NodePtr opaque(const std::string& key, bool negate) {
    auto node = std::make_shared<MarkerNode>();
    node->kind = MarkerNode::Kind::opaque;
    node->key = key;
    node->negate = negate;
    return node;
  }

  static MarkerEnd end_at(const std::string& text, const std::optional<PyVersion>& ver,
                          bool inclusive) {
    return {false, inclusive, text, ver};
  }

  // The release segments of `v` with the last one raised by one ("3.12" -> "3.13").
  static PyVersion bumped(PyVersion v, std::size_t keep) {
    PyVersion out;
    out.epoch = v.epoch;
    v.release.resize(std::max<std::size_t>(keep, 1));
    out.release = v.release;
    auto& last = out.release.back().digits;
    // decimal increment of a digit string
    int i = static_cast<int>(last.size()) - 1;
    while (i >= 0 && last[static_cast<std::size_t>(i)] == '9') {
      last[static_cast<std::size_t>(i)] = '0';
      --i;
    }
    if (i < 0) {
      last.insert(last.begin(), '1');
    } else {
      ++last[static_cast<std::size_t>(i)];
    }
    return out;
  }

  static PyVersion release_only(const PyVersion& v) {
    PyVersion out;
    out.epoch = v.epoch;
    out.release = v.release;
    return out;
  }

  static Result<NodePtr> version_atom(const std::string& variable, std::string op,
                                      const std::string& value, const std::string& key) {
    auto node = std::make_shared<MarkerNode>();
    node->kind = MarkerNode::Kind::atom;
    node->version = true;
    node->variable = variable == "python_version" ? "python_full_version" : variable;
    const bool wildcard = value.size() > 2 && value.compare(value.size() - 2, 2, ".*") == 0;
    const auto parsed = parse_py_version(wildcard ? value.substr(0, value.size() - 2) : value);
    if (!parsed || op == "===" || (wildcard && op != "==" && op != "!=")) {
      return opaque(key, false);
    }
    const PyVersion v = release_only(*parsed);
    const auto text = to_string(v);
    const auto at = [&](const PyVersion& x, bool inclusive) {
      return end_at(to_string(x), x, inclusive);
    };
    MarkerInterval interval;
    if (variable == "python_version" && !wildcard) {
      // python_version is python_full_version cut to MAJOR.MINOR (uv rewrites it the same way).
      if (v.release.size() > 2) {
        return opaque(key, false);
      }
      PyVersion low = v;
      low.release.resize(2);
      const PyVersion next = bumped(low, 2);
      if (op == ">=") {
        interval.lo = at(low, true);
      } else if (op == "<") {
        interval.hi = at(low, false);
      } else if (op == ">") {
        interval.lo = at(next, true);
      } else if (op == "<=") {
        interval.hi = at(next, false);
      } else if (op == "==" || op == "!=") {
        interval = {at(low, true), at(next, false)};
        node->negate = op == "!=";
      } else { // ~=
        if (v.release.size() < 2) {
          return opaque(key, false);
        }
        interval = {at(low, true), at(bumped(v, 1), false)};
      }
      node->intervals.push_back(interval);
      return NodePtr(node);
    }
    if (wildcard) {
      interval = {at(v, true), at(bumped(v, v.release.size()), false)};
      node->negate = op == "!=";
    } else if (op == "==" || op == "!=") {
      interval = {at(v, true), at(v, true)};
      node->negate = op == "!=";
    } else if (op == ">=") {
      interval.lo = at(v, true);
    } else if (op == ">") {
      interval.lo = at(v, false);
    } else if (op == "<=") {
      interval.hi = at(v, true);
    } else if (op == "<") {
      interval.hi = at(v, false);
    } else { // ~=
      if (v.release.size() < 2) {
        return opaque(key, false);
      }
      interval = {at(v, true), at(bumped(v, v.release.size() - 1), false)};
    }
    (void)text;
    node->intervals.push_back(interval);
    return NodePtr(node);
  }

  static Result<NodePtr> make_atom(Operand left, std::string op, Operand right) {
    if (left.variable == right.variable) {
      return opaque(left.text + " " + op + " " + right.text, false);
    }
    if (op == "in" || op == "not in") {
      const std::string key = (left.variable ? left.text : "'" + left.text + "'") + " in " +
                              (right.variable ? right.text : "'" + right.text + "'");
      return opaque(key, op == "not in");
    }
    if (!left.variable) {
      std::swap(left, right);
      if (op == "<") {
        op = ">";
      } else if (op == ">") {
        op = "<";
      } else if (op == "<=") {
        op = ">=";
      } else if (op == ">=") {
        op = "<=";
      }
    }
    const std::string& variable = left.text;
    std::string value = right.text;
    const std::string key = variable + " " + op + " '" + value + "'";
    if (is_version_variable(variable)) {
      return version_atom(variable, op, value, key);
    }
    if (variable == "extra") {
      value = normalize_name(value);
      if (op != "==" && op != "!=") {
        return opaque(key, false);
      }
    }
    if (op == "~=" || op == "===") {
      return opaque(key, false);
    }
    auto node = std::make_shared<MarkerNode>();
    node->kind = MarkerNode::Kind::atom;
    node->variable = variable;
    MarkerInterval interval;
    const auto at = [&](bool inclusive) { return end_at(value, std::nullopt, inclusive); };
    if (op == "==" || op == "!=") {
      interval = {at(true), at(true)};
      node->negate = op == "!=";
    } else if (op == ">=") {
      interval.lo = at(true);
    } else if (op == ">") {
      interval.lo = at(false);
    } else if (op == "<=") {
      interval.hi = at(true);
    } else {
      interval.hi = at(false);
    }
    node->intervals.push_back(interval);
    return NodePtr(node);
  }

  static constexpr int k_max_depth = 64;
  std::string_view m_text;
  std::size_t m_pos = 0;
  int m_depth = 0;
  Token m_token;
};

// The values a variable is compared with, in order; a point is an even index (the gap before
// value i/2) or an odd one (value (i-1)/2 itself).
struct Domain {
  bool version = false;
  std::vector<MarkerEnd> values;

  [[nodiscard]] int order(const MarkerEnd& a, const MarkerEnd& b) const {
    if (version && a.ver && b.ver) {
      const auto c = compare(*a.ver, *b.ver);
      return std::is_lt(c) ? -1 : (std::is_gt(c) ? 1 : 0);
    }
    return a.text < b.text ? -1 : (a.text > b.text ? 1 : 0);
  }

  void add(const MarkerEnd& end) {
    if (!end.unbounded) {
      values.push_back(end);
    }
  }

  void finish() {
    std::sort(values.begin(), values.end(),
              [this](const MarkerEnd& a, const MarkerEnd& b) { return order(a, b) < 0; });
    values.erase(
        std::unique(values.begin(), values.end(),
                    [this](const MarkerEnd& a, const MarkerEnd& b) { return order(a, b) == 0; }),
        values.end());
  }

  [[nodiscard]] int index(const MarkerEnd& end) const {
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (order(values[i], end) == 0) {
        return static_cast<int>(i);
      }
    }
    return 0;
  }

  [[nodiscard]] int points() const { return static_cast<int>(values.size()) * 2 + 1; }

  // The points an interval holds: [first, last].
  [[nodiscard]] std::pair<int, int> span(const MarkerInterval& interval) const {
    const int first =
        interval.lo.unbounded ? 0 : 2 * index(interval.lo) + (interval.lo.inclusive ? 1 : 2);
    const int last = interval.hi.unbounded
                         ? points() - 1
                         : 2 * index(interval.hi) + (interval.hi.inclusive ? 1 : 0);
    return {first, last};
  }
};

void collect(const NodePtr& node, std::map<std::string, Domain>& domains,
             std::set<std::string>& opaque) {
  if (!node) {
    return;
  }
  if (node->kind == MarkerNode::Kind::opaque) {
    opaque.insert(node->key);
    return;
  }
  if (node->kind == MarkerNode::Kind::atom) {
    auto& domain = domains[node->variable];
    domain.version = node->version;
    for (const auto& interval : node->intervals) {
      domain.add(interval.lo);
      domain.add(interval.hi);
    }
    return;
  }
  for (const auto& child : node->children) {
    collect(child, domains, opaque);
  }
}

struct Assignment {
  std::map<std::string, int> point;
  std::map<std::string, bool> opaque;
  const std::map<std::string, Domain>* domains = nullptr;
};

bool evaluate(const NodePtr& node, const Assignment& at) {
  if (!node) {
    return true;
  }
  switch (node->kind) {
  case MarkerNode::Kind::all:
    return std::all_of(node->children.begin(), node->children.end(),
                       [&](const NodePtr& c) { return evaluate(c, at); });
  case MarkerNode::Kind::any:
    return std::any_of(node->children.begin(), node->children.end(),
                       [&](const NodePtr& c) { return evaluate(c, at); });
  case MarkerNode::Kind::negation:
    return !evaluate(node->children.front(), at);
  case MarkerNode::Kind::opaque:
    return at.opaque.at(node->key) != node->negate;
  case MarkerNode::Kind::atom: {
    const auto& domain = at.domains->at(node->variable);
    const int p = at.point.at(node->variable);
    bool in = false;
    for (const auto& interval : node->intervals) {
      const auto [first, last] = domain.span(interval);
      in = in || (p >= first && p <= last);
    }
    return in != node->negate;
  }
  }
  return false;
}

MarkerEnd python_end(const PythonBound& bound) {
  if (!bound.version) {
    return {};
  }
  return {false, bound.inclusive, to_string(*bound.version), bound.version};
}

} // namespace
} // namespace equivalence_detail

using namespace equivalence_detail; // NOLINT(google-build-using-namespace)

Result<Marker> parse_marker(std::string_view text) {
  Marker out;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  out.text = std::string(text);
  if (text.empty()) {
    return out;
  }
  equivalence_detail::Parser parser(text);
  ENVLOCK_TRY_ASSIGN(out.root, parser.parse());
  return out;
}

Marker marker_and(const Marker& a, const Marker& b) {
  if (!a.root) {
    return b;
  }
  if (!b.root) {
    return a;
  }
  auto node = std::make_shared<MarkerNode>();
  node->kind = MarkerNode::Kind::all;
  node->children = {a.root, b.root};
  return {node, "(" + a.text + ") and (" + b.text + ")"};
}

std::optional<PythonRange> python_range(std::string_view specifiers) {
  const auto parsed = parse_specifiers(specifiers);
  if (!parsed) {
    return std::nullopt;
  }
  // Intersect each clause's release-only range; "!=" only moves an end it touches.
  PythonRange out;
  const auto tighter_lower = [](const PythonBound& a, const PythonBound& b) {
    if (!a.version) {
      return b;
    }
    if (!b.version) {
      return a;
    }
    const auto c = compare(*a.version, *b.version);
    if (std::is_neq(c)) {
      return std::is_gt(c) ? a : b;
    }
    return a.inclusive ? b : a;
  };
  const auto tighter_upper = [](const PythonBound& a, const PythonBound& b) {
    if (!a.version) {
      return b;
    }
    if (!b.version) {
      return a;
    }
    const auto c = compare(*a.version, *b.version);
    if (std::is_neq(c)) {
      return std::is_lt(c) ? a : b;
    }
    return a.inclusive ? b : a;
  };
  std::vector<std::pair<PyVersion, bool>> excluded; // (version, wildcard)
  for (const auto& s : *parsed) {
    const bool wildcard = s.version.size() > 2 && s.version.ends_with(".*");
    auto v = parse_py_version(wildcard ? s.version.substr(0, s.version.size() - 2) : s.version);
    if (!v || s.op == "===") {
      continue;
    }
    PyVersion r;
    r.epoch = v->epoch;
    r.release = v->release;
    PythonBound lo;
    PythonBound hi;
    const auto bump = [](PyVersion x, std::size_t keep) {
      x.release.resize(std::max<std::size_t>(keep, 1));
      auto& last = x.release.back().digits;
      int i = static_cast<int>(last.size()) - 1;
      while (i >= 0 && last[static_cast<std::size_t>(i)] == '9') {
        last[static_cast<std::size_t>(i)] = '0';
        --i;
      }
      if (i < 0) {
        last.insert(last.begin(), '1');
      } else {
        ++last[static_cast<std::size_t>(i)];
      }
      return x;
    };
    if (s.op == "!=") {
      excluded.emplace_back(r, wildcard);
      continue;
    }
    if (wildcard) {
      lo = {r, true};
      hi = {bump(r, r.release.size()), false};
    } else if (s.op == "==") {
      lo = {r, true};
      hi = {r, true};
    } else if (s.op == ">=") {
      lo = {r, true};
    } else if (s.op == ">") {
      lo = {r, false};
    } else if (s.op == "<=") {
      hi = {r, true};
    } else if (s.op == "<") {
      hi = {r, false};
    } else if (s.op == "~=" && r.release.size() >= 2) {
      lo = {r, true};
      hi = {bump(r, r.release.size() - 1), false};
    }
    out.lower = tighter_lower(out.lower, lo);
    out.upper = tighter_upper(out.upper, hi);
  }
  for (const auto& [v, wildcard] : excluded) {
    if (out.lower.version && out.lower.inclusive && std::is_eq(compare(*out.lower.version, v)) &&
        !wildcard) {
      out.lower.inclusive = false;
    }
    if (out.upper.version && out.upper.inclusive && std::is_eq(compare(*out.upper.version, v)) &&
        !wildcard) {
      out.upper.inclusive = false;
    }
  }
  if (out.lower.version && out.upper.version) {
    const auto c = compare(*out.lower.version, *out.upper.version);
    out.empty = std::is_gt(c) || (std::is_eq(c) && !(out.lower.inclusive && out.upper.inclusive));
  }
  return out;
}

bool same_python_range(const PythonRange& a, const PythonRange& b) {
  const auto same = [](const PythonBound& x, const PythonBound& y) {
    if (!x.version || !y.version) {
      return !x.version && !y.version;
    }
    return std::is_eq(compare(*x.version, *y.version)) && x.inclusive == y.inclusive;
  };
  return a.empty == b.empty && same(a.lower, b.lower) && same(a.upper, b.upper);
}

std::string to_string(const PythonRange& range) {
  std::vector<std::string> parts;
  if (range.lower.version) {
    parts.push_back((range.lower.inclusive ? ">=" : ">") + to_string(*range.lower.version));
  }
  if (range.upper.version) {
    parts.push_back((range.upper.inclusive ? "<=" : "<") + to_string(*range.upper.version));
  }
  std::string out;
  for (const auto& p : parts) {
    out += (out.empty() ? "" : ", ") + p;
  }
  return out.empty() ? "any Python" : out;
}

Marker marker_never() {
  auto never = std::make_shared<MarkerNode>();
  never->kind = MarkerNode::Kind::any;
  return {never, "false"};
}

Marker marker_or(const Marker& a, const Marker& b) {
  if (!a.root || !b.root) {
    return {};
  }
  auto node = std::make_shared<MarkerNode>();
  node->kind = MarkerNode::Kind::any;
  node->children = {a.root, b.root};
  return {node, "(" + a.text + ") or (" + b.text + ")"};
}

Marker marker_not(const Marker& a) {
  if (!a.root) {
    return marker_never();
  }
  auto node = std::make_shared<MarkerNode>();
  node->kind = MarkerNode::Kind::negation;
  node->children = {a.root};
  return {node, "not (" + a.text + ")"};
}

Equivalence equivalent(const Marker& a, const Marker& b, const PythonRange& python) {
  std::map<std::string, Domain> domains;
  std::set<std::string> opaque;
  collect(a.root, domains, opaque);
  collect(b.root, domains, opaque);
  const bool has_python = domains.count("python_full_version") != 0;
  if (has_python) {
    auto& domain = domains["python_full_version"];
    domain.add(python_end(python.lower));
    domain.add(python_end(python.upper));
  }
  std::vector<std::string> names;
  std::size_t combinations = std::size_t{1} << std::min<std::size_t>(opaque.size(), 20);
  for (auto& [name, domain] : domains) {
    domain.finish();
    names.push_back(name);
    combinations *= static_cast<std::size_t>(domain.points());
    if (combinations > 200000 || opaque.size() > 16) {
      return Equivalence::undecided;
    }
  }
  // The points of python_full_version that requires-python allows.
  std::vector<int> python_points;
  if (has_python) {
    const auto& domain = domains["python_full_version"];
    MarkerInterval allowed;
    allowed.lo = python_end(python.lower);
    if (allowed.lo.unbounded == false) {
      allowed.lo.inclusive = python.lower.inclusive;
    }
    allowed.hi = python_end(python.upper);
    const auto [first, last] = domain.span(allowed);
    for (int p = first; p <= last; ++p) {
      python_points.push_back(p);
    }
  }
  const std::vector<std::string> opaque_keys(opaque.begin(), opaque.end());
  Assignment at;
  at.domains = &domains;
  std::function<bool(std::size_t)> walk = [&](std::size_t i) -> bool {
    if (i < names.size()) {
      const auto& name = names[i];
      if (name == "python_full_version") {
        for (const int p : python_points) {
          at.point[name] = p;
          if (!walk(i + 1)) {
            return false;
          }
        }
        return true;
      }
      for (int p = 0; p < domains.at(name).points(); ++p) {
        at.point[name] = p;
        if (!walk(i + 1)) {
          return false;
        }
      }
      return true;
    }
    const std::size_t k = opaque_keys.size();
    for (std::size_t bits = 0; bits < (std::size_t{1} << k); ++bits) {
      for (std::size_t j = 0; j < k; ++j) {
        at.opaque[opaque_keys[j]] = ((bits >> j) & 1U) != 0;
      }
      if (evaluate(a.root, at) != evaluate(b.root, at)) {
        return false;
      }
    }
    return true;
  };
  return walk(0) ? Equivalence::equal : Equivalence::different;
}

} // namespace envlock::uv
