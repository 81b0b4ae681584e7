#include "importer/trusted_path.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <vector>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

// Why the entry `st` (at `shown`) may not be on a trusted path, if it may not.
std::optional<std::string> entry_problem(const struct stat& st, const fs::path& shown) {
  if (S_ISLNK(st.st_mode)) {
    return shown.string() + ": a symbolic link";
  }
  if (st.st_uid != 0) {
    return shown.string() + ": owned by uid " + std::to_string(st.st_uid) + ", not root";
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return shown.string() + ": writable by others (mode " + mode_text(st.st_mode) + ")";
  }
  return std::nullopt;
}

Status opened(int fd, const fs::path& shown) {
  if (fd >= 0) {
    return {};
  }
  if (errno == ELOOP) {
    return env_error(shown.string() + ": a symbolic link");
  }
  return env_error(shown.string() + ": " + std::strerror(errno));
}

int last_flags(EntryKind kind) {
  switch (kind) {
  case EntryKind::file:
    return O_RDONLY | O_NONBLOCK | O_NOCTTY;
  case EntryKind::folder:
    return O_RDONLY | O_DIRECTORY;
  case EntryKind::any:
    break;
  }
  return O_PATH;
}

} // namespace

std::string mode_text(mode_t mode) {
  char text[8];
  (void)std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

std::optional<std::string> owned_file_problem(const struct stat& st, const fs::path& path,
                                              bool read_only) {
  if (!S_ISREG(st.st_mode)) {
    return path.string() + ": not a regular file";
  }
  if (st.st_uid != 0) {
    return path.string() + ": owned by uid " + std::to_string(st.st_uid) + ", not root";
  }
  const mode_t forbidden = read_only ? (S_IWUSR | S_IWGRP | S_IWOTH) : (S_IWGRP | S_IWOTH);
  if ((st.st_mode & forbidden) != 0) {
    return path.string() + ": writable (mode " + mode_text(st.st_mode) + ")";
  }
  return std::nullopt;
}

Result<TrustedEntry> open_trusted(const fs::path& path, EntryKind kind) {
  // Not normalised: the kernel resolves "a/link/.." through the link, so ".." is refused below
  // rather than taken away on paper.
  const fs::path given = fs::absolute(path);
  std::vector<std::string> parts;
  for (const auto& part : given.relative_path()) {
    const std::string name = part.string();
    if (!name.empty() && name != ".") {
      parts.push_back(name);
    }
  }
  fs::path shown = given.root_path();
  util::Fd dir(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
  ENVLOCK_TRY(opened(dir.get(), shown));
  TrustedEntry entry;
  if (::fstat(dir.get(), &entry.st) != 0) {
    return env_error(shown.string() + ": " + std::strerror(errno));
  }
  if (auto problem = entry_problem(entry.st, shown)) {
    return env_error(*problem);
  }
  for (std::size_t i = 0; i < parts.size(); ++i) {
    shown /= parts[i];
    if (parts[i] == "..") {
      return env_error(shown.string() + ": '..' on a trusted path");
    }
    const bool last = i + 1 == parts.size();
    // Every entry is first opened as itself (a link too) and checked; the last one is then
    // opened for use from the same checked folder, and checked again on that descriptor.
    util::Fd next(::openat(dir.get(), parts[i].c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
    ENVLOCK_TRY(opened(next.get(), shown));
    if (::fstat(next.get(), &entry.st) != 0) {
      return env_error(shown.string() + ": " + std::strerror(errno));
    }
    if (auto problem = entry_problem(entry.st, shown)) {
      return env_error(*problem);
    }
    if (!last) {
      if (!S_ISDIR(entry.st.st_mode)) {
        return env_error(shown.string() + ": not a folder");
      }
      dir = std::move(next);
      continue;
    }
    if (kind == EntryKind::any) {
      entry.fd = std::move(next);
      return entry;
    }
    util::Fd used(::openat(dir.get(), parts[i].c_str(), last_flags(kind) | O_NOFOLLOW | O_CLOEXEC));
    ENVLOCK_TRY(opened(used.get(), shown));
    struct stat again {};
    if (::fstat(used.get(), &again) != 0) {
      return env_error(shown.string() + ": " + std::strerror(errno));
    }
    if (again.st_dev != entry.st.st_dev || again.st_ino != entry.st.st_ino) {
      return env_error(shown.string() + ": replaced while it was being checked");
    }
    if (auto problem = entry_problem(again, shown)) {
      return env_error(*problem);
    }
    if (kind == EntryKind::file && !S_ISREG(again.st_mode)) {
      return env_error(shown.string() + ": not a regular file");
    }
    entry.st = again;
    entry.fd = std::move(used);
    return entry;
  }
  // The path is "/" itself.
  if (kind == EntryKind::file) {
    return env_error(shown.string() + ": not a regular file");
  }
  entry.fd = std::move(dir);
  return entry;
}

std::optional<std::string> untrusted_because(const fs::path& path) {
  auto entry = open_trusted(path, EntryKind::any);
  if (!entry) {
    return entry.error().message;
  }
  return std::nullopt;
}

Status require_trusted(const fs::path& path, const std::string& what) {
  if (auto problem = untrusted_because(path)) {
    return env_error(what + " " + path.string() + " is not safe: " + *problem +
                     "; it must be owned by root and writable by no one else, with every folder "
                     "above it");
  }
  return {};
}

} // namespace envlock::importer
