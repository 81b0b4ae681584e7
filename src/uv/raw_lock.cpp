#include "uv/raw_lock.hpp"

#include "uv/uv_lock.hpp"

#include <algorithm>
#include <tuple>

namespace envlock::uv {

namespace {

Result<lock::UvPackage> finish_package(RawPackage raw, std::string_view origin, std::size_t index) {
  if (!raw.name) {
    return input_error(std::string(origin) + ": package #" + std::to_string(index + 1) +
                       ": missing name");
  }
  lock::UvPackage package{std::move(*raw.name), std::move(raw.version), "", ""};
  if (!raw.has_source) {
    return input_error(std::string(origin) + ": package '" + package.name + "': missing source");
  }
  for (const auto& kind : source_kinds()) {
    for (auto& [key, location] : raw.source_keys) {
      if (key == kind) {
        package.source_kind = kind;
        package.source_location = std::move(location);
        return package;
      }
    }
  }
  return input_error(std::string(origin) + ": package '" + package.name + "': unknown source kind");
}

} // namespace

Result<lock::UvLockPin> finish_lock(RawLock raw, std::string_view origin) {
  if (!raw.version) {
    return input_error(std::string(origin) + ": missing version");
  }
  if (*raw.version != k_supported_version) {
    return input_error(std::string(origin) + ": unsupported lock version " +
                       std::to_string(*raw.version) + " (envlock reads version " +
                       std::to_string(k_supported_version) + ")");
  }
  lock::UvLockPin pin;
  pin.version = *raw.version;
  pin.revision = raw.revision;
  pin.requires_python = std::move(raw.requires_python);
  pin.packages.reserve(raw.packages.size());
  for (std::size_t i = 0; i < raw.packages.size(); ++i) {
    ENVLOCK_TRY_ASSIGN(auto package, finish_package(std::move(raw.packages[i]), origin, i));
    pin.packages.push_back(std::move(package));
  }
  std::sort(pin.packages.begin(), pin.packages.end(), [](const auto& a, const auto& b) {
    return std::tie(a.name, a.version, a.source_kind, a.source_location) <
           std::tie(b.name, b.version, b.source_kind, b.source_location);
  });
  return pin;
}

const std::vector<std::string>& source_kinds() {
  static const std::vector<std::string> kinds = {"registry",  "git",      "url",    "path",
                                                 "directory", "editable", "virtual"};
  return kinds;
}

} // namespace envlock::uv
