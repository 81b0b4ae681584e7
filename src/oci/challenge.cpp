#include "oci/challenge.hpp"

#include "util/strings.hpp"

#include <cctype>

namespace envlock::oci {

namespace {

bool is_token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
         std::string_view("!#$%&'*+-.^_`|~/").find(c) != std::string_view::npos;
}

class Reader {
public:
  explicit Reader(std::string_view text) : m_text(text) {}

  void skip_space() {
    while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t')) {
      ++m_pos;
    }
  }
  void skip_space_and_commas() {
    while (m_pos < m_text.size() &&
           (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == ',')) {
      ++m_pos;
    }
  }
  [[nodiscard]] bool done() const { return m_pos >= m_text.size(); }
  [[nodiscard]] char peek() const { return done() ? '\0' : m_text[m_pos]; }
  void advance() { ++m_pos; }
  [[nodiscard]] std::size_t pos() const { return m_pos; }
  void rewind(std::size_t pos) { m_pos = pos; }

  std::string token() {
    const std::size_t start = m_pos;
    while (!done() && is_token_char(m_text[m_pos])) {
      ++m_pos;
    }
    return std::string(m_text.substr(start, m_pos - start));
  }

  // A quoted-string after its opening quote; false when the closing quote is missing.
  bool quoted(std::string& out) {
    while (!done()) {
      const char c = m_text[m_pos++];
      if (c == '"') {
        return true;
      }
      if (c == '\\' && !done()) {
        out += m_text[m_pos++];
      } else {
        out += c;
      }
    }
    return false;
  }

private:
  std::string_view m_text;
  std::size_t m_pos = 0;
};

Error malformed(std::string_view why) {
  return input_error("malformed WWW-Authenticate header: " + std::string(why));
}

} // namespace

Result<std::vector<Challenge>> parse_www_authenticate(std::string_view header) {
  std::vector<Challenge> out;
  Reader in(header);
  in.skip_space_and_commas();
  while (!in.done()) {
    Challenge challenge;
    challenge.scheme = util::to_lower(in.token());
    if (challenge.scheme.empty()) {
      return malformed("expected an authentication scheme");
    }
    in.skip_space();
    while (!in.done()) {
      const std::size_t start = in.pos();
      std::string name = util::to_lower(in.token());
      in.skip_space();
      if (name.empty() || in.peek() != '=') {
        in.rewind(start); // the next challenge's scheme, or a token68 we do not use
        break;
      }
      in.advance();
      in.skip_space();
      std::string value;
      if (in.peek() == '"') {
        in.advance();
        if (!in.quoted(value)) {
          return malformed("unterminated quoted value for '" + name + "'");
        }
      } else {
        value = in.token();
      }
      challenge.params[name] = value;
      in.skip_space();
      if (in.peek() != ',') {
        break;
      }
      in.skip_space_and_commas();
    }
    out.push_back(std::move(challenge));
    in.skip_space_and_commas();
    if (!in.done() && !is_token_char(in.peek())) {
      return malformed("unexpected '" + std::string(1, in.peek()) + "'");
    }
  }
  if (out.empty()) {
    return malformed("empty");
  }
  return out;
}

} // namespace envlock::oci
