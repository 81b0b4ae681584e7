// Helpers for unit tests: a fresh temporary folder per test, and test data paths.
#pragma once

#include "util/fs.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>

namespace envlock::test {

// tests/data/<name>
inline std::filesystem::path data_path(const std::string& name) {
  return std::filesystem::path(ENVLOCK_TEST_DATA) / name;
}

// A fresh temporary folder for one test; throws (failing the test) when none can be made.
inline util::TempDir temp_dir(std::string_view prefix = "envlock-test") {
  auto made = util::TempDir::create(prefix);
  if (!made) {
    throw std::runtime_error(made.error().message);
  }
  return std::move(*made);
}

// Writes `content` to `path`, creating parent folders.
void write_text(const std::filesystem::path& path, const std::string& content);

} // namespace envlock::test
