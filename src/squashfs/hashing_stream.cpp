#include "squashfs/hashing_stream.hpp"

#include "squashfs/archive_reader.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace envlock::squashfs {

namespace {
constexpr std::size_t k_buffer_size = std::size_t{1} << 20;
}

HashingStream::HashingStream(util::Fd fd, ProgressFn progress)
    : m_fd(std::move(fd)), m_progress(std::move(progress)), m_buffer(k_buffer_size) {}

Result<std::unique_ptr<HashingStream>> HashingStream::open(const std::filesystem::path& path,
                                                           ProgressFn progress) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return env_error(path.string() + ": cannot open: " + std::strerror(errno));
  }
  return std::unique_ptr<HashingStream>(new HashingStream(util::Fd(fd), std::move(progress)));
}

long HashingStream::read_more() {
  for (;;) {
    const ssize_t n = ::read(m_fd.get(), m_buffer.data(), m_buffer.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      m_errno = errno;
      return -1;
    }
    m_hash.update(m_buffer.data(), static_cast<std::size_t>(n));
    m_bytes += static_cast<std::uint64_t>(n);
    if (m_progress && n > 0) {
      m_progress(m_bytes);
    }
    return n;
  }
}

la_ssize_t HashingStream::read_callback(struct archive* a, void* self, const void** buffer) {
  auto* stream = static_cast<HashingStream*>(self);
  const long n = stream->read_more();
  if (n < 0) {
    archive_set_error(a, stream->m_errno, "read error: %s", std::strerror(stream->m_errno));
    return -1;
  }
  *buffer = stream->m_buffer.data();
  return n;
}

Status HashingStream::attach(struct archive* reader) {
  if (archive_read_open(reader, this, nullptr, &HashingStream::read_callback, nullptr) !=
      ARCHIVE_OK) {
    return input_error(archive_error_text(reader));
  }
  return {};
}

Result<std::string> HashingStream::finish_digest() {
  for (;;) {
    const long n = read_more();
    if (n < 0) {
      return env_error(std::string("read error: ") + std::strerror(m_errno));
    }
    if (n == 0) {
      break;
    }
  }
  return "sha256:" + m_hash.finish_hex();
}

} // namespace envlock::squashfs
