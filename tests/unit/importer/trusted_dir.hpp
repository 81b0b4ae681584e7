// A fresh folder directly under / (root's, mode 0700), for tests of the path-trust walk
// (docs/manual/trust.md) run as root: the usual temporary folder lies under /tmp, which everyone
// can write, so nothing below it is trusted.
#pragma once

#include "util/fs.hpp"

#include <stdexcept>
#include <string_view>

namespace envlock::test {

inline util::TempDir trusted_temp_dir(std::string_view prefix = "envlock-test-trusted") {
  auto made = util::TempDir::create_in("/", prefix);
  if (!made) {
    throw std::runtime_error(made.error().message);
  }
  return std::move(*made);
}

} // namespace envlock::test
