// Result<T>: the value of an operation that can fail in an expected way (bad input, a missing
// file, a registry that answers 500). Failures carry an Error whose code maps to envlock's
// documented exit codes. Exceptions are kept for aborting the whole run.
#pragma once

#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace envlock {

// The documented exit codes (docs/manual/README.md).
enum class ExitCode : int {
  ok = 0,          // success
  failed = 1,      // a check or comparison failed
  usage = 2,       // usage or input error
  environment = 3, // environment error: network, missing tool, unreadable system state
};

struct Error {
  ExitCode code = ExitCode::usage;
  std::string message;
};

// An input error (exit 2): the user's files or arguments are wrong.
inline Error input_error(std::string message) {
  return Error{ExitCode::usage, std::move(message)};
}
// An environment error (exit 3): the network, a tool or the system failed us.
inline Error env_error(std::string message) {
  return Error{ExitCode::environment, std::move(message)};
}
// A failed check (exit 1).
inline Error check_failed(std::string message) {
  return Error{ExitCode::failed, std::move(message)};
}
// The same error with `prefix` (a key or a path, with its ": ") before its message.
inline Error with_prefix(Error error, const std::string& prefix) {
  error.message.insert(0, prefix);
  return error;
}

template <typename T> class [[nodiscard]] Result {
public:
  Result(T result_value) // NOLINT(google-explicit-constructor)
      : m_v(std::in_place_index<0>, std::move(result_value)) {}
  Result(Error error)
      : m_v(std::in_place_index<1>, std::move(error)) {} // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool has_value() const { return m_v.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(m_v); }
  const T& value() const& { return std::get<0>(m_v); }
  T&& value() && { return std::get<0>(std::move(m_v)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  Error& error() & { return std::get<1>(m_v); }
  const Error& error() const& { return std::get<1>(m_v); }
  Error&& error() && { return std::get<1>(std::move(m_v)); }

  T value_or(T fallback) const& { return has_value() ? value() : std::move(fallback); }

private:
  std::variant<T, Error> m_v;
};

template <> class [[nodiscard]] Result<void> {
public:
  Result() = default;
  Result(Error error)
      : m_error(std::move(error)), m_ok(false) {} // NOLINT(google-explicit-constructor)

  [[nodiscard]] bool has_value() const { return m_ok; }
  explicit operator bool() const { return m_ok; }
  Error& error() & { return m_error; }
  const Error& error() const& { return m_error; }
  Error&& error() && { return std::move(m_error); }

private:
  Error m_error;
  bool m_ok = true;
};

using Status = Result<void>;

} // namespace envlock

// Return the error of a failed Result from the enclosing function.
#define ENVLOCK_TRY(expr)                                                                          \
  do {                                                                                             \
    auto&& envlock_try_result_ = (expr);                                                           \
    if (!envlock_try_result_) {                                                                    \
      return std::move(envlock_try_result_).error();                                               \
    }                                                                                              \
  } while (false)

#define ENVLOCK_CONCAT_INNER_(a, b) a##b
#define ENVLOCK_CONCAT_(a, b) ENVLOCK_CONCAT_INNER_(a, b)

// Declare `lhs` from the value of a Result, or return its error: ENVLOCK_TRY_ASSIGN(auto x, f());
#define ENVLOCK_TRY_ASSIGN(lhs, expr)                                                              \
  ENVLOCK_TRY_ASSIGN_IMPL_(ENVLOCK_CONCAT_(envlock_try_r_, __LINE__), lhs, expr)
// NOLINTBEGIN(bugprone-macro-parentheses): `lhs` is a declaration and `tmp` a name.
#define ENVLOCK_TRY_ASSIGN_IMPL_(tmp, lhs, expr)                                                   \
  auto tmp = (expr);                                                                               \
  if (!tmp) {                                                                                      \
    return std::move(tmp).error();                                                                 \
  }                                                                                                \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)
