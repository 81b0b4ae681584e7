// Times as envlock writes them: UTC, RFC 3339, whole seconds ("2026-11-30T23:01:52Z").
#pragma once

#include <chrono>
#include <string>

namespace envlock::util {

// `time` as "YYYY-MM-DDTHH:MM:SSZ" (UTC, whole seconds).
std::string rfc3339_utc(std::chrono::system_clock::time_point time);

} // namespace envlock::util
