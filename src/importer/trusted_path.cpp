#include "importer/trusted_path.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

std::string mode_text(mode_t mode) {
  char text[8];
  (void)std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

// Why the one entry `path` (not following a final link) is not safe, if it is not.
std::optional<std::string> entry_problem(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    return path.string() + ": " + std::strerror(errno);
  }
  if (st.st_uid != 0) {
    return path.string() + ": owned by uid " + std::to_string(st.st_uid) + ", not root";
  }
  if (S_ISLNK(st.st_mode)) {
    return std::nullopt; // a link's own mode means nothing; its target is checked
  }
  const bool others_write = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  if (others_write && !(S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0)) {
    return path.string() + ": writable by others (mode " + mode_text(st.st_mode) + ")";
  }
  return std::nullopt;
}

// Every entry from / down to `path` (absolute, normal), in that order.
std::optional<std::string> chain_problem(const fs::path& path) {
  fs::path walked = path.root_path();
  if (auto problem = entry_problem(walked)) {
    return problem;
  }
  for (const auto& part : path.relative_path()) {
    walked /= part;
    if (auto problem = entry_problem(walked)) {
      return problem;
    }
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> untrusted_because(const fs::path& path) {
  const fs::path given = fs::absolute(path).lexically_normal();
  if (auto problem = chain_problem(given)) {
    return problem;
  }
  std::error_code ec;
  const fs::path real = fs::canonical(given, ec);
  if (ec) {
    return given.string() + ": " + ec.message();
  }
  if (real != given) {
    return chain_problem(real);
  }
  return std::nullopt;
}

Status require_trusted(const fs::path& path, const std::string& what) {
  if (auto problem = untrusted_because(path)) {
    return env_error(what + " " + path.string() + " is not safe: " + *problem +
                     "; it must be owned by root and writable by no one else");
  }
  return {};
}

} // namespace envlock::importer
