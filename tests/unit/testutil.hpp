// Helpers for unit tests: a fresh temporary folder per test, and test data paths.
#pragma once

#include "util/fs.hpp"

#include <filesystem>
#include <string>

namespace envlock::test {

// tests/data/<name>
inline std::filesystem::path data_path(const std::string& name) {
  return std::filesystem::path(ENVLOCK_TEST_DATA) / name;
}

// Writes `content` to `path`, creating parent folders.
void write_text(const std::filesystem::path& path, const std::string& content);

} // namespace envlock::test
