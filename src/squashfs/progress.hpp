// One progress line on stderr while layers are pulled and the image is squashed, rewritten in
// place ("\r"); only when stderr is a terminal, silent otherwise.
#pragma once

#include <cstdint>
#include <string>

namespace envlock::squashfs {

enum class ProgressMode { quiet, terminal };

// terminal when stderr is a TTY, else quiet.
ProgressMode progress_mode_for_stderr();

class ProgressLine {
public:
  explicit ProgressLine(ProgressMode mode, std::uint64_t total_bytes)
      : m_mode(mode), m_total(total_bytes) {}
  // "pulling layer 2/5: 12.0 of 40.0 MiB"; `done` counts bytes of earlier layers too.
  void layer(std::size_t index, std::size_t count, std::uint64_t done);
  // A one-word stage ("squashing", "digesting").
  void stage(const std::string& text);
  // Clears the line.
  void done();

private:
  void show(const std::string& text);
  ProgressMode m_mode;
  std::uint64_t m_total;
  std::uint64_t m_last_shown = 0;
};

} // namespace envlock::squashfs
