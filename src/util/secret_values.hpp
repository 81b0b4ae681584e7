// Values that must never be printed (passwords, tokens, the secrets in the environment) and the
// forms they travel in: the value itself, its Base64 at any of the three alignments (so a secret
// inside a longer Base64 text is found too), its percent-encoded form, and for a login the HTTP
// Basic value base64(USER:PASSWORD). Text from outside envlock (a registry's answer, a source
// line) is checked or scrubbed against them before it is printed or written.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::util {

// Shorter values are not searched for: they would match ordinary text.
inline constexpr std::size_t k_min_secret_length = 4;
// The least length of an environment variable's value taken as a secret by its name alone.
inline constexpr std::size_t k_min_environment_secret_length = 8;

class SecretValues {
public:
  // Adds `value` and its forms; a value shorter than `min_length` is ignored.
  void add(std::string_view value, std::size_t min_length = k_min_secret_length);
  // Adds a login: the password (as add()) and the Basic value base64(USER:PASSWORD).
  void add_login(std::string_view user, std::string_view password);
  // Adds the value of every environment variable whose name says it holds a secret (it contains
  // PASSWORD, PASSWD, PASSPHRASE, TOKEN, SECRET, CREDENTIAL, APIKEY or API_KEY, or ends in
  // _KEY), when it is at least k_min_environment_secret_length characters long.
  void add_environment();
  // Adds every form `other` holds.
  void merge(const SecretValues& other);

  [[nodiscard]] bool empty() const { return m_forms.empty(); }
  // Whether `text` holds any of the values, in any of their forms.
  [[nodiscard]] bool found_in(std::string_view text) const;
  // `text` with every occurrence of any form replaced by "***".
  [[nodiscard]] std::string scrub(std::string_view text) const;

private:
  void add_form(std::string form);
  std::vector<std::string> m_forms; // longest first, no duplicates
};

// Whether an environment variable of this name holds a secret by the rule of add_environment().
bool is_secret_variable_name(std::string_view name);

} // namespace envlock::util
