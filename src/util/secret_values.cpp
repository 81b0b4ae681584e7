#include "util/secret_values.hpp"

#include "util/base64.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <array>
#include <cctype>

extern char** environ; // NOLINT(readability-redundant-declaration): POSIX, not in a header

namespace envlock::util {

namespace {

constexpr std::array<std::string_view, 8> k_secret_words = {
    "PASSWORD", "PASSWD", "PASSPHRASE", "TOKEN", "SECRET", "CREDENTIAL", "APIKEY", "API_KEY"};

std::string to_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

// The characters of the Base64 of `value` that depend on `value` alone when it starts `offset`
// bytes (0, 1 or 2) into a longer text: character i covers bits [6i, 6i+6) of the stream.
std::string base64_interior(std::string_view value, std::size_t offset) {
  const std::string encoded = base64_encode(std::string(offset, '\0') + std::string(value));
  const std::size_t first = (8 * offset + 5) / 6;
  const std::size_t end_bits = 8 * (offset + value.size());
  if (end_bits < 6) {
    return {};
  }
  const std::size_t last = (end_bits - 6) / 6; // the last character inside the value's bits
  if (last < first) {
    return {};
  }
  return encoded.substr(first, last - first + 1);
}

} // namespace

bool is_secret_variable_name(std::string_view name) {
  const std::string upper = to_upper(name);
  return upper.ends_with("_KEY") ||
         std::any_of(k_secret_words.begin(), k_secret_words.end(),
                     [&](std::string_view word) { return upper.find(word) != std::string::npos; });
}

void SecretValues::add_form(std::string form) {
  if (form.size() < k_min_secret_length ||
      std::find(m_forms.begin(), m_forms.end(), form) != m_forms.end()) {
    return;
  }
  const auto at = std::find_if(m_forms.begin(), m_forms.end(),
                               [&](const std::string& f) { return f.size() < form.size(); });
  m_forms.insert(at, std::move(form));
}

void SecretValues::add(std::string_view value, std::size_t min_length) {
  if (value.size() < std::max(min_length, k_min_secret_length)) {
    return;
  }
  add_form(std::string(value));
  add_form(percent_encode(value));
  for (std::size_t offset = 0; offset < 3; ++offset) {
    add_form(base64_interior(value, offset));
  }
}

void SecretValues::add_login(std::string_view user, std::string_view password) {
  add(password);
  if (!password.empty()) {
    add_form(base64_encode(std::string(user) + ":" + std::string(password)));
  }
}

void SecretValues::add_environment() {
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::size_t eq = text.find('=');
    if (eq != std::string_view::npos && is_secret_variable_name(text.substr(0, eq))) {
      add(text.substr(eq + 1), k_min_environment_secret_length);
    }
  }
}

void SecretValues::merge(const SecretValues& other) {
  for (const auto& form : other.m_forms) {
    add_form(form);
  }
}

bool SecretValues::found_in(std::string_view text) const {
  return std::any_of(m_forms.begin(), m_forms.end(), [&](const std::string& form) {
    return text.find(form) != std::string_view::npos;
  });
}

std::string SecretValues::scrub(std::string_view text) const {
  std::string out(text);
  for (const auto& form : m_forms) {
    std::size_t at = 0;
    while ((at = out.find(form, at)) != std::string::npos) {
      out.replace(at, form.size(), "***");
      at += 3;
    }
  }
  return out;
}

} // namespace envlock::util
