#include "uv/lock_expect.hpp"

#include "util/strings.hpp"
#include "uv/specifier.hpp"
#include "uv/version.hpp"

#include <algorithm>

namespace envlock::uv {

namespace {

// The versions uv.lock locks for the packages `matches` accepts, "NAME VERSION" each.
template <typename Match>
std::vector<std::string> locked(const lock::UvLockPin& uv_lock, Match matches,
                                const std::string& expected, bool& agrees) {
  std::vector<std::string> out;
  agrees = false;
  for (const auto& p : uv_lock.packages) {
    if (!matches(p.name)) {
      continue;
    }
    out.push_back(p.name + " " + (p.version.empty() ? "(no version)" : p.version));
    agrees = agrees || version_agrees(p.version, expected);
  }
  return out;
}

void check_package(const std::string& key, const std::string& expected,
                   const lock::UvLockPin& uv_lock, const auto& matches,
                   std::vector<std::string>& out) {
  if (expected.empty()) {
    return;
  }
  bool agrees = false;
  const auto versions = locked(uv_lock, matches, expected, agrees);
  if (!versions.empty() && !agrees) {
    out.push_back(key + " is '" + expected + "'; " + uv_lock.path + " locks " +
                  util::join(versions, ", "));
  }
}

} // namespace

bool version_agrees(const std::string& locked, const std::string& expected) {
  auto a = parse_py_version(locked);
  auto b = parse_py_version(expected);
  if (!a || !b) {
    return locked == expected;
  }
  if (a->local.empty() || b->local.empty()) {
    a->local.clear();
    b->local.clear();
  }
  return compare(*a, *b) == std::strong_ordering::equal;
}

std::vector<std::string> expect_contradictions(const lock::Expect& expect,
                                               const lock::UvLockPin& uv_lock,
                                               const std::vector<std::string>& not_installed) {
  std::vector<std::string> out;
  lock::UvLockPin installed = uv_lock;
  std::erase_if(installed.packages, [&](const lock::UvPackage& p) {
    return std::find(not_installed.begin(), not_installed.end(), p.name) != not_installed.end();
  });
  check_package(
      "expect.pytorch", expect.pytorch, installed,
      [](const std::string& name) { return name == "torch"; }, out);
  check_package(
      "expect.nccl", expect.nccl, installed,
      [](const std::string& name) { return name.starts_with("nvidia-nccl-cu"); }, out);
  if (!expect.python.empty() && !uv_lock.requires_python.empty()) {
    const auto specifiers = parse_specifiers(uv_lock.requires_python);
    if (specifiers) {
      bool some = false;
      // MAJOR.MINOR, then MAJOR.MINOR.0 to .99: a patch release some interpreter may have.
      for (int patch = -1; patch < 100 && !some; ++patch) {
        const std::string text = expect.python + (patch < 0 ? "" : "." + std::to_string(patch));
        const auto version = parse_py_version(text);
        some = version && satisfies(*version, *specifiers);
      }
      if (!some) {
        out.push_back("expect.python is '" + expect.python + "'; " + uv_lock.path +
                      " has requires-python '" + uv_lock.requires_python + "', which no Python " +
                      expect.python + " satisfies");
      }
    }
  }
  return out;
}

} // namespace envlock::uv
