#include "util/clock.hpp"

#include <array>
#include <ctime>

namespace envlock::util {

std::string rfc3339_utc(std::chrono::system_clock::time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  std::array<char, 32> text{};
  const std::size_t n = std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &parts);
  return std::string(text.data(), n);
}

} // namespace envlock::util
