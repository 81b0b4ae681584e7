#include "util/fs.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

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

} // namespace

Result<std::string> read_file_limited(const fs::path& path, std::uintmax_t limit) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return input_error(path.string() + ": " + errno_text(errno));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return input_error(path.string() + ": " + errno_text(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return input_error(path.string() + ": is a directory");
  }
  if (static_cast<std::uintmax_t>(st.st_size) > limit) {
    ::close(fd);
    return input_error(path.string() + ": larger than " + std::to_string(limit) + " bytes");
  }
  std::string out;
  out.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      const int err = errno;
      ::close(fd);
      return input_error(path.string() + ": " + errno_text(err));
    }
    if (n == 0) {
      break;
    }
    out.append(buf, static_cast<std::size_t>(n));
    if (out.size() > limit) {
      ::close(fd);
      return input_error(path.string() + ": larger than " + std::to_string(limit) + " bytes");
    }
  }
  ::close(fd);
  return out;
}

Result<std::string> read_file(const fs::path& path) {
  return read_file_limited(path, std::uintmax_t{1} << 34);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : m_path(std::move(other.m_path)), m_temp(std::move(other.m_temp)), m_fd(other.m_fd),
      m_mode(other.m_mode) {
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
  AtomicFile f;
  f.m_path = path;
  f.m_mode = mode;
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::string tmpl = (dir / ("." + path.filename().string() + ".tmp.XXXXXX")).string();
  const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd < 0) {
    return env_error("cannot create a temporary file beside " + path.string() + ": " +
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

Status AtomicFile::commit() {
  if (m_fd < 0) {
    return env_error("cannot commit " + m_path.string() + ": not open");
  }
  if (::fchmod(m_fd, m_mode) != 0 || ::fsync(m_fd) != 0) {
    return env_error("cannot write " + m_path.string() + ": " + errno_text(errno));
  }
  if (::close(m_fd) != 0) {
    m_fd = -1;
    return env_error("cannot write " + m_path.string() + ": " + errno_text(errno));
  }
  m_fd = -1;
  if (::rename(m_temp.c_str(), m_path.c_str()) != 0) {
    return env_error("cannot rename " + m_temp.string() + " to " + m_path.string() + ": " +
                     errno_text(errno));
  }
  m_temp.clear();
  // Make the rename durable too.
  const fs::path dir = m_path.has_parent_path() ? m_path.parent_path() : fs::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return {};
}

Status write_file_atomic(const fs::path& path, std::string_view content, unsigned mode) {
  ENVLOCK_TRY_ASSIGN(AtomicFile f, AtomicFile::open(path, mode));
  ENVLOCK_TRY(f.write(content));
  return f.commit();
}

TempDir::TempDir(std::string_view prefix) {
  const char* base = std::getenv("TMPDIR");
  std::string tmpl =
      (fs::path(base != nullptr && *base != 0 ? base : "/tmp") / (std::string(prefix) + ".XXXXXX"))
          .string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    throw std::runtime_error("cannot create a temporary folder: " + errno_text(errno));
  }
  m_path = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(m_path, ec);
}

} // namespace envlock::util
