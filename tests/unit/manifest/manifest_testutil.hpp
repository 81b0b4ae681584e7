// Helpers for the manifest tests: parse a data file under its bare name, so that messages are
// the same wherever the checkout lives.
#pragma once

#include "../testutil.hpp"
#include "manifest/manifest.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>
#include <string>

namespace envlock::test {

// Parses tests/data/manifest/<name> as if it were the file "<name>".
inline Result<manifest::Manifest> parse_data(const std::string& name) {
  auto text = util::read_file(data_path("manifest/" + name));
  REQUIRE(text.has_value());
  return manifest::parse_manifest(*text, name);
}

// The error message of parsing tests/data/manifest/<name>; fails the test if it parses.
inline std::string parse_error(const std::string& name) {
  const auto result = parse_data(name);
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().code == ExitCode::usage);
  return result.error().message;
}

} // namespace envlock::test
