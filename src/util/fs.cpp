#include "util/fs.hpp"

#include "util/fd.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace envlock::util {

bool path_exists(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

bool is_relative_inside(const std::string& path) {
  const std::filesystem::path p(path);
  if (path.empty() || p.is_absolute()) {
    return false;
  }
  return std::none_of(p.begin(), p.end(), [](const auto& part) { return part == ".."; });
}

namespace fs = std::filesystem;

namespace {

std::string errno_text(int err) {
  return std::strerror(err);
}

// The descriptor a name like /dev/stdout or /proc/self/fd/3 stands for, or -1.
int named_descriptor(const std::string& path) {
  if (path == "-" || path == "/dev/stdout") {
    return STDOUT_FILENO;
  }
  if (path == "/dev/stderr") {
    return STDERR_FILENO;
  }
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.size() > prefix.size() && path.starts_with(prefix)) {
      int fd = -1;
      const char* first = path.data() + prefix.size();
      const char* last = path.data() + path.size();
      const auto [end, ec] = std::from_chars(first, last, fd);
      if (ec == std::errc() && end == last) {
        return fd;
      }
    }
  }
  return -1;
}

// Follows the symbolic links of `path` to the first path that is not a link (which may not
// exist: a dangling link names the file to create).
Result<fs::path> final_target(const fs::path& path) {
  fs::path current = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      return current;
    }
    std::array<char, 4096> buf{};
    const ssize_t n = ::readlink(current.c_str(), buf.data(), buf.size());
    if (n < 0 || static_cast<std::size_t>(n) >= buf.size()) {
      return env_error(path.string() + ": cannot read the link: " + errno_text(errno));
    }
    const fs::path next(std::string(buf.data(), static_cast<std::size_t>(n)));
    current = next.is_absolute() ? next : current.parent_path() / next;
  }
  return input_error(path.string() + ": too many levels of symbolic links");
}

} // namespace

Result<OutputTarget> output_target(const fs::path& path) {
  OutputTarget target;
  target.path = path;
  if (const int fd = named_descriptor(path.string()); fd >= 0) {
    target.kind = OutputTarget::Kind::stream;
    target.inherited_fd = fd;
    return target;
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      return input_error(path.string() + ": is a directory");
    }
    if (!S_ISREG(st.st_mode)) {
      target.kind = OutputTarget::Kind::stream; // a device, a FIFO or a socket
      return target;
    }
  }
  ENVLOCK_TRY_ASSIGN(target.path, final_target(path));
  return target;
}

Result<std::string> read_input(const fs::path& path, std::uintmax_t limit) {
  if (path != "-") {
    return read_file_limited(path, limit);
  }
  std::string out;
  std::array<char, 1 << 16> buf{};
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return input_error("standard input: " + errno_text(errno));
    }
    if (n == 0) {
      return out;
    }
    out.append(buf.data(), static_cast<std::size_t>(n));
    if (out.size() > limit) {
      return input_error("standard input: larger than " + std::to_string(limit) + " bytes");
    }
  }
}

namespace {

// Everything left to read from `fd`, failing with `too_large` past `limit` bytes.
Result<std::string> read_to_end(int fd, std::uintmax_t limit, std::uintmax_t expected,
                                const std::string& shown, const std::string& too_large) {
  std::string out;
  out.reserve(static_cast<std::size_t>(std::min(expected, limit)));
  std::array<char, 1 << 16> buf{};
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return input_error(shown + ": " + errno_text(errno));
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

std::string too_large_text(const std::string& shown, std::uintmax_t limit) {
  return shown + ": larger than " + std::to_string(limit) + " bytes";
}

} // namespace

Result<std::string> read_file_limited(const fs::path& path, std::uintmax_t limit) {
  const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    return input_error(path.string() + ": " + errno_text(errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return input_error(path.string() + ": " + errno_text(errno));
  }
  if (S_ISDIR(st.st_mode)) {
    return input_error(path.string() + ": is a directory");
  }
  const std::string too_large = too_large_text(path.string(), limit);
  if (static_cast<std::uintmax_t>(st.st_size) > limit) {
    return input_error(too_large);
  }
  return read_to_end(fd.get(), limit, static_cast<std::uintmax_t>(st.st_size), path.string(),
                     too_large);
}

std::string file_type_name(unsigned mode) {
  if (S_ISREG(mode)) {
    return "a regular file";
  }
  if (S_ISDIR(mode)) {
    return "a folder";
  }
  if (S_ISLNK(mode)) {
    return "a symbolic link";
  }
  if (S_ISFIFO(mode)) {
    return "a FIFO";
  }
  if (S_ISCHR(mode)) {
    return "a character device";
  }
  if (S_ISBLK(mode)) {
    return "a block device";
  }
  if (S_ISSOCK(mode)) {
    return "a socket";
  }
  return "not a file";
}

Result<Fd> open_regular_file(const fs::path& path, std::uintmax_t limit, const std::string& shown) {
  const std::string name = shown.empty() ? path.string() : shown;
  const auto check = [&](const struct stat& st) -> Status {
    if (!S_ISREG(st.st_mode)) {
      return input_error(name + ": is " + file_type_name(st.st_mode) + ", not a regular file");
    }
    if (static_cast<std::uintmax_t>(st.st_size) > limit) {
      return input_error(too_large_text(name, limit));
    }
    return {};
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return input_error(name + ": " + errno_text(errno));
  }
  ENVLOCK_TRY(check(st));
  // O_NONBLOCK: a FIFO put in the file's place since the stat() must not block the open.
  Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd) {
    return input_error(name + ": " + errno_text(errno));
  }
  if (::fstat(fd.get(), &st) != 0) {
    return input_error(name + ": " + errno_text(errno));
  }
  ENVLOCK_TRY(check(st));
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0) {
    return input_error(name + ": " + errno_text(errno));
  }
  return fd;
}

Status check_default_output(const fs::path& path, std::string_view option) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) {
    return {}; // absent (or unreadable: writing it reports why) or a regular file
  }
  std::string what = file_type_name(st.st_mode);
  if (S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(path, ec);
    if (!ec) {
      what += " (to " + target.string() + ")";
    }
  }
  return input_error(path.string() + ": is " + what +
                     "; a default output is written only as a regular file: remove it, or name "
                     "the file with " +
                     std::string(option));
}

Result<std::string> read_regular_file(const fs::path& path, std::uintmax_t limit,
                                      const std::string& shown) {
  ENVLOCK_TRY_ASSIGN(const Fd fd, open_regular_file(path, limit, shown));
  const std::string name = shown.empty() ? path.string() : shown;
  struct stat st {};
  const std::uintmax_t expected =
      ::fstat(fd.get(), &st) == 0 ? static_cast<std::uintmax_t>(st.st_size) : 0;
  return read_to_end(fd.get(), limit, expected, name, too_large_text(name, limit));
}

Result<std::string> read_file(const fs::path& path) {
  return read_file_limited(path, std::uintmax_t{1} << 34);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : m_path(std::move(other.m_path)), m_temp(std::move(other.m_temp)), m_fd(other.m_fd),
      m_mode(other.m_mode), m_stream(other.m_stream), m_synced(other.m_synced) {
  other.m_fd = -1;
  other.m_temp.clear();
}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    this->~AtomicFile();
    new (this) AtomicFile(std::move(other));
  }
  return *this;
}

AtomicFile::~AtomicFile() {
  if (m_fd >= 0) {
    ::close(m_fd);
  }
  if (!m_temp.empty()) {
    ::unlink(m_temp.c_str());
  }
}

Result<AtomicFile> AtomicFile::open(const fs::path& path, unsigned mode) {
  ENVLOCK_TRY_ASSIGN(const OutputTarget target, output_target(path));
  AtomicFile f;
  f.m_path = path;
  f.m_mode = mode;
  if (target.kind == OutputTarget::Kind::stream) {
    f.m_stream = true;
    f.m_fd = target.inherited_fd >= 0 ? ::fcntl(target.inherited_fd, F_DUPFD_CLOEXEC, 3)
                                      : ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (f.m_fd < 0) {
      return env_error("cannot write " + path.string() + ": " + errno_text(errno));
    }
    return f;
  }
  f.m_path = target.path;
  const fs::path dir = f.m_path.has_parent_path() ? f.m_path.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + f.m_path.filename().string() + ".tmp.XXXXXX")).string();
  const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd < 0) {
    return env_error("cannot create a temporary file beside " + f.m_path.string() + ": " +
                     errno_text(errno));
  }
  f.m_fd = fd;
  f.m_temp = tmpl;
  return f;
}

Status AtomicFile::write(std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(m_fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return env_error("cannot write " + m_path.string() + ": " + errno_text(errno));
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

Status AtomicFile::sync() {
  if (m_fd < 0) {
    return env_error("cannot commit " + m_path.string() + ": not open");
  }
  if (m_stream || m_synced) {
    return {};
  }
  if (::fchmod(m_fd, m_mode) != 0 || ::fsync(m_fd) != 0) {
    return env_error("cannot write " + m_path.string() + ": " + errno_text(errno));
  }
  m_synced = true;
  return {};
}

Status AtomicFile::commit() {
  if (m_fd < 0) {
    return env_error("cannot commit " + m_path.string() + ": not open");
  }
  if (m_stream) {
    if (::close(std::exchange(m_fd, -1)) != 0) {
      return env_error("cannot write " + m_path.string() + ": " + errno_text(errno));
    }
    return {};
  }
  ENVLOCK_TRY(sync());
  if (::close(std::exchange(m_fd, -1)) != 0) {
    return env_error("cannot write " + m_path.string() + ": " + errno_text(errno));
  }
  if (::rename(m_temp.c_str(), m_path.c_str()) != 0) {
    return env_error("cannot rename " + m_temp.string() + " to " + m_path.string() + ": " +
                     errno_text(errno));
  }
  m_temp.clear();
  // Make the rename durable too.
  const fs::path dir = m_path.has_parent_path() ? m_path.parent_path() : fs::path(".");
  const Fd dfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dfd) {
    ::fsync(dfd.get());
  }
  return {};
}

Status write_file_atomic(const fs::path& path, std::string_view content, unsigned mode) {
  ENVLOCK_TRY_ASSIGN(AtomicFile f, AtomicFile::open(path, mode));
  ENVLOCK_TRY(f.write(content));
  return f.commit();
}

Result<TempDir> TempDir::create_in(const fs::path& folder, std::string_view prefix) {
  std::string tmpl = (folder / (std::string(prefix) + ".XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    return env_error("cannot create a temporary folder in " + folder.string() + ": " +
                     errno_text(errno));
  }
  TempDir made;
  made.m_path = tmpl;
  return made;
}

Result<TempDir> TempDir::create(std::string_view prefix) {
  const char* base = std::getenv("TMPDIR");
  return create_in(base != nullptr && *base != 0 ? base : "/tmp", prefix);
}

TempDir& TempDir::operator=(TempDir&& other) noexcept {
  if (this != &other) {
    std::error_code ec;
    if (!m_path.empty()) {
      fs::remove_all(m_path, ec);
    }
    m_path = std::exchange(other.m_path, {});
  }
  return *this;
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!m_path.empty()) {
    fs::remove_all(m_path, ec);
  }
}

} // namespace envlock::util
