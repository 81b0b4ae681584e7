// What both uv.lock readers extract before any check: the few fields envlock records. One
// function turns it into lock::UvLockPin, so both readers fail with the same words.
#pragma once

#include "lock/lock.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace envlock::uv {

// The one uv.lock schema version envlock reads.
inline constexpr std::int64_t k_supported_version = 1;

struct RawPackage {
  std::optional<std::string> name;
  std::string version;
  bool has_source = false;
  // (kind, location) for every string-valued key of `source`, in file order.
  std::vector<std::pair<std::string, std::string>> source_keys;
};

struct RawLock {
  std::optional<std::int64_t> version;
  std::int64_t revision = 0;
  std::string requires_python;
  std::vector<RawPackage> packages;
};

// Checks the version and every package, and sorts packages by name, then version. Errors (exit
// 2): "ORIGIN: missing version", "ORIGIN: unsupported lock version N (envlock reads version 1)",
// "ORIGIN: package #N: missing name", "ORIGIN: package 'x': missing source" or "... unknown
// source kind".
Result<lock::UvLockPin> finish_lock(RawLock raw, std::string_view origin);

} // namespace envlock::uv
