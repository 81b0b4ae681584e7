#include "uv/marker.hpp"

#include "uv/requirement.hpp"
#include "uv/specifier.hpp"
#include "uv/version.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <vector>

namespace envlock::uv {

namespace {

struct Token {
  enum class Kind { word, text, op, open, close, end } kind = Kind::end;
  std::string value;
};

Result<std::vector<Token>> tokenize(std::string_view text) {
  std::vector<Token> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      ++i;
    } else if (c == '(' || c == ')') {
      out.push_back({c == '(' ? Token::Kind::open : Token::Kind::close, std::string(1, c)});
      ++i;
    } else if (c == '\'' || c == '"') {
      const auto close = text.find(c, i + 1);
      if (close == std::string_view::npos) {
        return input_error("an unclosed quote");
      }
      out.push_back({Token::Kind::text, std::string(text.substr(i + 1, close - i - 1))});
      i = close + 1;
    } else if (c == '<' || c == '>' || c == '=' || c == '!' || c == '~') {
      std::size_t end = i;
      while (end < text.size() &&
             std::string_view("<>=!~").find(text[end]) != std::string_view::npos) {
        ++end;
      }
      out.push_back({Token::Kind::op, std::string(text.substr(i, end - i))});
      i = end;
    } else if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.') {
      std::size_t end = i;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) != 0 ||
                                   text[end] == '_' || text[end] == '.')) {
        ++end;
      }
      out.push_back({Token::Kind::word, std::string(text.substr(i, end - i))});
      i = end;
    } else {
      return input_error("unexpected '" + std::string(1, c) + "'");
    }
  }
  out.push_back({Token::Kind::end, ""});
  return out;
}

bool version_variable(const std::string& name) {
  return name == "python_version" || name == "python_full_version" ||
         name == "implementation_version";
}

bool known_variable(const std::string& name) {
  static const std::array<std::string_view, 12> k_names = {"os_name",
                                                           "sys_platform",
                                                           "platform_machine",
                                                           "platform_release",
                                                           "platform_system",
                                                           "platform_version",
                                                           "python_version",
                                                           "python_full_version",
                                                           "implementation_name",
                                                           "implementation_version",
                                                           "platform_python_implementation",
                                                           "extra"};
  return std::find(k_names.begin(), k_names.end(), name) != k_names.end();
}

class Parser {
public:
  Parser(std::vector<Token> tokens, const MarkerEnvironment& environment)
      : m_tokens(std::move(tokens)), m_environment(environment) {}

  Result<bool> parse() {
    ENVLOCK_TRY_ASSIGN(const bool value, parse_or());
    if (peek().kind != Token::Kind::end) {
      return input_error("unexpected '" + peek().value + "'");
    }
    return value;
  }

private:
  const Token& peek() const { return m_tokens[m_next]; }
  Token take() { return m_tokens[m_next < m_tokens.size() - 1 ? m_next++ : m_next]; }
  bool take_word(std::string_view word) {
    if (peek().kind == Token::Kind::word && peek().value == word) {
      ++m_next;
      return true;
    }
    return false;
  }

  Result<bool> parse_or() {
    ENVLOCK_TRY_ASSIGN(bool value, parse_and());
    while (take_word("or")) {
      ENVLOCK_TRY_ASSIGN(const bool right, parse_and());
      value = value || right;
    }
    return value;
  }

  Result<bool> parse_and() {
    ENVLOCK_TRY_ASSIGN(bool value, parse_atom());
    while (take_word("and")) {
      ENVLOCK_TRY_ASSIGN(const bool right, parse_atom());
      value = value && right;
    }
    return value;
  }

  Result<bool> parse_atom() {
    if (peek().kind == Token::Kind::open) {
      take();
      ENVLOCK_TRY_ASSIGN(const bool value, parse_or());
      if (take().kind != Token::Kind::close) {
        return input_error("an unclosed parenthesis");
      }
      return value;
    }
    const Token left = take();
    std::string op;
    if (peek().kind == Token::Kind::op) {
      op = take().value;
    } else if (take_word("in")) {
      op = "in";
    } else if (take_word("not")) {
      if (!take_word("in")) {
        return input_error("'not' without 'in'");
      }
      op = "not in";
    } else {
      return input_error("a comparison without an operator");
    }
    const Token right = take();
    return compare(left, op, right);
  }

  Result<std::string> operand(const Token& token, std::string& variable) const {
    if (token.kind == Token::Kind::text) {
      return token.value;
    }
    if (token.kind != Token::Kind::word || !known_variable(token.value)) {
      return input_error("unknown variable '" + token.value + "'");
    }
    variable = token.value;
    const auto it = m_environment.values.find(token.value);
    return it == m_environment.values.end() ? std::string() : it->second;
  }

  Result<bool> compare(const Token& left, const std::string& op, const Token& right) const {
    std::string left_variable;
    std::string right_variable;
    ENVLOCK_TRY_ASSIGN(const std::string a, operand(left, left_variable));
    ENVLOCK_TRY_ASSIGN(const std::string b, operand(right, right_variable));
    if (left_variable == "extra" || right_variable == "extra") {
      const std::string& value = left_variable == "extra" ? b : a;
      const bool holds = m_environment.extras.contains(normalize_name(value));
      if (op == "==" || op == "in") {
        return holds;
      }
      if (op == "!=" || op == "not in") {
        return !holds;
      }
      return input_error("'extra' compared with '" + op + "'");
    }
    if (op == "in" || op == "not in") {
      const bool found = b.find(a) != std::string::npos;
      return op == "in" ? found : !found;
    }
    if (version_variable(left_variable) || version_variable(right_variable)) {
      // The variable's value on one side, the specifier's version on the other; a literal on
      // the left reverses the comparison ("'3.12' <= python_version").
      const bool variable_left = version_variable(left_variable);
      std::string reversed = op;
      if (!variable_left) {
        reversed = op == "<" ? ">" : op == ">" ? "<" : op == "<=" ? ">=" : op == ">=" ? "<=" : op;
      }
      const auto specifiers = parse_specifiers(reversed + (variable_left ? b : a));
      const auto version = parse_py_version(variable_left ? a : b);
      if (specifiers && version) {
        return satisfies(*version, *specifiers);
      }
    }
    if (op == "==" || op == "===") {
      return a == b;
    }
    if (op == "!=") {
      return a != b;
    }
    if (op == "<") {
      return a < b;
    }
    if (op == "<=") {
      return a <= b;
    }
    if (op == ">") {
      return a > b;
    }
    if (op == ">=") {
      return a >= b;
    }
    return input_error("unknown operator '" + op + "'");
  }

  std::vector<Token> m_tokens;
  std::size_t m_next = 0;
  const MarkerEnvironment& m_environment;
};

} // namespace

MarkerEnvironment linux_environment(std::string_view platform, std::string_view python) {
  MarkerEnvironment env;
  std::string arch(platform.substr(
      platform.find('/') == std::string_view::npos ? platform.size() : platform.find('/') + 1));
  arch = arch.substr(0, arch.find('/'));
  const std::string machine = arch == "amd64" || arch.empty() ? "x86_64"
                              : arch == "arm64"               ? "aarch64"
                                                              : arch;
  std::string full(python);
  std::string two_part(python);
  if (std::count(full.begin(), full.end(), '.') == 1) {
    full += ".0";
  } else if (const auto second = two_part.find('.', two_part.find('.') + 1);
             second != std::string::npos) {
    two_part.resize(second);
  }
  env.values = {{"os_name", "posix"},
                {"sys_platform", "linux"},
                {"platform_system", "Linux"},
                {"platform_machine", machine},
                {"platform_python_implementation", "CPython"},
                {"implementation_name", "cpython"},
                {"python_version", two_part},
                {"python_full_version", full},
                {"implementation_version", full}};
  return env;
}

Result<bool> evaluate_marker(std::string_view marker, const MarkerEnvironment& environment) {
  const auto fail = [&](const Error& error) {
    return input_error("'" + std::string(marker) + "' is not a PEP 508 marker: " + error.message);
  };
  auto tokens = tokenize(marker);
  if (!tokens) {
    return fail(tokens.error());
  }
  if (tokens->size() == 1) {
    return true;
  }
  auto value = Parser(std::move(*tokens), environment).parse();
  if (!value) {
    return fail(value.error());
  }
  return *value;
}

} // namespace envlock::uv
