#include "util/root_dir.hpp"

#include "util/dir.hpp"
#include "util/fs.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace envlock::util {

namespace {

// The kernel's own limit on links followed in one resolution (MAXSYMLINKS).
constexpr int k_max_links = 40;

long call_openat2(int dir, const char* path, std::uint64_t flags) {
  open_how how{};
  how.flags = flags;
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
  return ::syscall(SYS_openat2, dir, path, &how, sizeof how);
}

// openat2 beneath `dir`, retried while the kernel asks to (EAGAIN: a rename raced the lookup).
int open_in_root(int dir, std::string_view path, std::uint64_t flags) {
  const std::string text = path.empty() ? std::string(".") : std::string(path);
  for (int attempt = 0;; ++attempt) {
    const long fd = call_openat2(dir, text.c_str(), flags | O_CLOEXEC);
    if (fd >= 0 || (errno != EAGAIN && errno != EINTR) || attempt >= 16) {
      return static_cast<int>(fd);
    }
  }
}

Error system_error(std::string_view path, int err) {
  return input_error(std::string(path) + ": " + std::strerror(err));
}

// The parts of `path` (empty parts, from "//" or a trailing "/", kept: they ask for a folder).
std::vector<std::string> path_parts(std::string_view path) {
  std::vector<std::string> parts;
  while (!path.empty() && path.front() == '/') {
    path.remove_prefix(1);
  }
  std::size_t start = 0;
  while (start <= path.size() && !path.empty()) {
    const std::size_t slash = path.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? path.size() : slash;
    parts.emplace_back(path.substr(start, end - start));
    if (slash == std::string_view::npos) {
      break;
    }
    start = slash + 1;
  }
  return parts;
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

} // namespace

RootResolver default_root_resolver() {
  const char* forced = std::getenv("ENVLOCK_ROOT_RESOLVER"); // NOLINT(concurrency-mt-unsafe)
  if (forced != nullptr && std::string_view(forced) == "user-space") {
    return RootResolver::user_space;
  }
  static const bool kernel_has_it = [] {
    const int fd = open_in_root(AT_FDCWD, "/", O_PATH);
    if (fd < 0) {
      return false;
    }
    ::close(fd);
    return true;
  }();
  return kernel_has_it ? RootResolver::kernel : RootResolver::user_space;
}

Result<RootDir> RootDir::open(const std::filesystem::path& dir, RootResolver resolver) {
  Fd fd(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!fd) {
    return errno == ENOTDIR ? input_error(dir.string() + ": not a folder")
                            : system_error(dir.string(), errno);
  }
  return RootDir(std::move(fd), resolver);
}

Result<RootDir::Walked> RootDir::walk(std::string_view path) const {
  // `pending` holds the parts still to resolve, the next one last; `dirs` what was entered
  // below the root, with the names.
  std::vector<std::string> pending = path_parts(path);
  std::reverse(pending.begin(), pending.end());
  std::vector<std::pair<Fd, std::string>> dirs;
  int links = 0;
  const auto current = [&] { return dirs.empty() ? m_fd.get() : dirs.back().first.get(); };
  while (!pending.empty()) {
    const std::string part = std::move(pending.back());
    pending.pop_back();
    if (part.empty() || part == ".") {
      continue;
    }
    if (part == "..") {
      if (!dirs.empty()) {
        dirs.pop_back();
      }
      continue;
    }
    struct stat st {};
    if (::fstatat(current(), part.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      return system_error(path, errno);
    }
    if (S_ISLNK(st.st_mode)) {
      if (++links > k_max_links) {
        return system_error(path, ELOOP);
      }
      std::array<char, 4096> target{};
      const ssize_t n = ::readlinkat(current(), part.c_str(), target.data(), target.size());
      if (n < 0) {
        return system_error(path, errno);
      }
      if (n == 0) {
        return system_error(path, ENOENT);
      }
      if (static_cast<std::size_t>(n) >= target.size()) {
        return system_error(path, ENAMETOOLONG);
      }
      const std::string_view text(target.data(), static_cast<std::size_t>(n));
      if (text.front() == '/') {
        dirs.clear();
      }
      auto parts = path_parts(text);
      pending.insert(pending.end(), parts.rbegin(), parts.rend());
      continue;
    }
    if (!pending.empty() && !S_ISDIR(st.st_mode)) {
      return system_error(path, ENOTDIR);
    }
    const int flags = O_PATH | O_NOFOLLOW | O_CLOEXEC | (pending.empty() ? 0 : O_DIRECTORY);
    Fd fd(::openat(current(), part.c_str(), flags));
    if (!fd) {
      return system_error(path, errno);
    }
    dirs.emplace_back(std::move(fd), part);
  }
  Walked out;
  for (const auto& dir : dirs) {
    out.real += "/" + dir.second;
  }
  if (dirs.empty()) {
    out.real = "/";
    out.target.reset(::openat(m_fd.get(), ".", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (!out.target) {
      return system_error(path, errno);
    }
    return out;
  }
  out.name = dirs.back().second;
  out.target = std::move(dirs.back().first);
  if (dirs.size() >= 2) {
    out.parent = std::move(dirs[dirs.size() - 2].first);
  }
  return out;
}

Result<Fd> RootDir::resolve(std::string_view path) const {
  if (m_resolver == RootResolver::user_space) {
    ENVLOCK_TRY_ASSIGN(Walked walked, walk(path));
    return std::move(walked.target);
  }
  Fd fd(open_in_root(m_fd.get(), path, O_PATH));
  if (!fd) {
    return system_error(path, errno);
  }
  return fd;
}

Result<struct stat> RootDir::stat(std::string_view path) const {
  ENVLOCK_TRY_ASSIGN(const Fd fd, resolve(path));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return system_error(path, errno);
  }
  return st;
}

Result<std::string> RootDir::real_path(std::string_view path) const {
  ENVLOCK_TRY_ASSIGN(const Walked walked, walk(path));
  return walked.real;
}

Result<Fd> RootDir::open_regular(std::string_view path) const {
  // Resolved to a descriptor that cannot be read (O_PATH) first, so that nothing but a regular
  // file is ever opened: opening a FIFO would wait for a writer, a device could do anything.
  // Then opened by the kernel again, or through its folder (the name is no link: O_NOFOLLOW),
  // and it must be the same file; O_NONBLOCK keeps a FIFO swapped in meanwhile from hanging.
  constexpr int k_flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  Fd found;
  Fd fd;
  struct stat st {};
  if (m_resolver == RootResolver::kernel) {
    found.reset(open_in_root(m_fd.get(), path, O_PATH));
    if (!found || ::fstat(found.get(), &st) != 0) {
      return system_error(path, errno);
    }
    if (S_ISREG(st.st_mode)) {
      fd.reset(open_in_root(m_fd.get(), path, k_flags));
    }
  } else {
    ENVLOCK_TRY_ASSIGN(Walked walked, walk(path));
    if (::fstat(walked.target.get(), &st) != 0) {
      return system_error(path, errno);
    }
    if (S_ISREG(st.st_mode)) {
      const int parent = walked.parent ? walked.parent.get() : m_fd.get();
      fd.reset(::openat(parent, walked.name.c_str(), k_flags | O_NOFOLLOW));
    }
  }
  if (!S_ISREG(st.st_mode)) {
    return input_error(std::string(path) + ": is " + file_type_name(st.st_mode) +
                       ", not a regular file");
  }
  struct stat opened {};
  if (!fd || ::fstat(fd.get(), &opened) != 0) {
    return system_error(path, errno);
  }
  if (!same_file(st, opened)) {
    return input_error(std::string(path) + ": changed while it was opened");
  }
  return fd;
}

Result<std::string> RootDir::read(std::string_view path, std::uintmax_t limit) const {
  ENVLOCK_TRY_ASSIGN(const Fd fd, open_regular(path));
  return read_open_file(fd.get(), std::string(path), limit);
}

Result<std::vector<RootEntry>> RootDir::list(std::string_view path) const {
  ENVLOCK_TRY_ASSIGN(const Fd dir, resolve(path));
  ENVLOCK_TRY_ASSIGN(std::vector<std::string> names,
                     names_in_folder(dir.get(), std::string(path), ExitCode::usage));
  std::sort(names.begin(), names.end());
  std::vector<RootEntry> out;
  out.reserve(names.size());
  std::string prefix(path);
  if (prefix.empty() || prefix.back() != '/') {
    prefix += '/';
  }
  for (auto& name : names) {
    RootEntry entry;
    struct stat st {};
    if (::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
      if (S_ISLNK(st.st_mode)) {
        auto linked = stat(prefix + name);
        entry.mode = linked ? linked->st_mode : 0;
      } else {
        entry.mode = st.st_mode;
      }
    }
    entry.name = std::move(name);
    out.push_back(std::move(entry));
  }
  return out;
}

Result<std::string> read_open_file(int fd, const std::string& shown, std::uintmax_t limit) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return system_error(shown, errno);
  }
  if (!S_ISREG(st.st_mode)) {
    return input_error(shown + ": is " + file_type_name(st.st_mode) + ", not a regular file");
  }
  const std::string too_large = shown + ": larger than " + std::to_string(limit) + " bytes";
  if (static_cast<std::uintmax_t>(st.st_size) > limit) {
    return input_error(too_large);
  }
  std::string out;
  out.reserve(static_cast<std::size_t>(st.st_size));
  std::array<char, 1 << 16> buf{};
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return system_error(shown, errno);
    }
    if (n == 0) {
      return out;
    }
    out.append(buf.data(), static_cast<std::size_t>(n));
    if (out.size() > limit) {
      return input_error(too_large);
    }
  }
}

} // namespace envlock::util
