#include "squashfs/progress.hpp"

#include <array>
#include <cstdio>
#include <unistd.h>

namespace envlock::squashfs {

namespace {
constexpr double k_mib = 1024.0 * 1024.0;
constexpr std::uint64_t k_step = std::uint64_t{4} << 20; // redraw every 4 MiB
} // namespace

ProgressMode progress_mode_for_stderr() {
  return ::isatty(STDERR_FILENO) != 0 ? ProgressMode::terminal : ProgressMode::quiet;
}

void ProgressLine::show(const std::string& text) {
  if (m_mode == ProgressMode::quiet) {
    return;
  }
  // \33[K clears what a longer earlier line left.
  if (std::fprintf(stderr, "\r%s\33[K", text.c_str()) < 0 || std::fflush(stderr) != 0) {
    m_mode = ProgressMode::quiet;
  }
}

void ProgressLine::layer(std::size_t index, std::size_t count, std::uint64_t done) {
  if (done < m_last_shown + k_step && done != m_total && done != 0) {
    return;
  }
  m_last_shown = done;
  std::array<char, 128> buf{};
  (void)std::snprintf(buf.data(), buf.size(), "pulling layer %zu/%zu: %.1f of %.1f MiB", index,
                      count, static_cast<double>(done) / k_mib,
                      static_cast<double>(m_total) / k_mib);
  show(buf.data());
}

void ProgressLine::stage(const std::string& text) {
  show(text + "...");
}

void ProgressLine::done() {
  show("");
}

} // namespace envlock::squashfs
