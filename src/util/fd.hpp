// Fd: an owned file descriptor, closed by its destructor. The one RAII descriptor type of envlock.
#pragma once

#include <unistd.h>
#include <utility>

namespace envlock::util {

class Fd {
public:
  Fd() = default;
  explicit Fd(int fd) : m_fd(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : m_fd(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) {
      reset(other.release());
    }
    return *this;
  }
  ~Fd() { reset(); }

  // The descriptor, or -1.
  [[nodiscard]] int get() const { return m_fd; }
  [[nodiscard]] bool valid() const { return m_fd >= 0; }
  explicit operator bool() const { return valid(); }
  // Gives the descriptor up without closing it.
  int release() { return std::exchange(m_fd, -1); }
  // Closes the held descriptor (if any) and holds `fd`.
  void reset(int fd = -1) {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
    m_fd = fd;
  }
  // Closes the descriptor now; returns close()'s result (0, or -1 with errno set).
  int close() {
    const int fd = release();
    return fd >= 0 ? ::close(fd) : 0;
  }

private:
  int m_fd = -1;
};

} // namespace envlock::util
