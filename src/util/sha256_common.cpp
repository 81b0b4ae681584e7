#include "util/sha256.hpp"

#include "util/fd.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace envlock::util {

std::string to_hex(const std::uint8_t* data, std::size_t size) {
  static constexpr char k_digits[] = "0123456789abcdef";
  std::string out(size * 2, '0');
  for (std::size_t i = 0; i < size; ++i) {
    out[2 * i] = k_digits[data[i] >> 4];
    out[2 * i + 1] = k_digits[data[i] & 0xf];
  }
  return out;
}

std::string Sha256::finish_hex() {
  const Sha256Bytes d = finish();
  return to_hex(d.data(), d.size());
}

std::string sha256_hex(std::string_view data) {
  Sha256 h;
  h.update(data);
  return h.finish_hex();
}

Result<Sha256Bytes> sha256_fd(int fd, const std::string& error_prefix,
                              const Sha256Progress& progress) {
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  Sha256 h;
  std::vector<char> buf(std::size_t{1} << 20);
  std::uint64_t hashed = 0;
  for (;;) {
    ENVLOCK_TRY(interruption_check());
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return input_error(error_prefix + std::strerror(errno));
    }
    if (n == 0) {
      return h.finish();
    }
    h.update(buf.data(), static_cast<std::size_t>(n));
    hashed += static_cast<std::uint64_t>(n);
    if (progress) {
      progress(hashed);
    }
  }
}

Result<std::string> sha256_file_hex(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const Fd fd, open_regular_file(path));
  ENVLOCK_TRY_ASSIGN(const Sha256Bytes digest, sha256_fd(fd.get(), path.string() + ": "));
  return to_hex(digest.data(), digest.size());
}

Result<FileDigest> sha256_file(const std::filesystem::path& path, const Sha256Progress& progress) {
  ENVLOCK_TRY_ASSIGN(const Fd fd, open_regular_file(path));
  FileDigest out;
  const Sha256Progress counted = [&](std::uint64_t hashed) {
    out.size = hashed;
    if (progress) {
      progress(hashed);
    }
  };
  ENVLOCK_TRY_ASSIGN(const Sha256Bytes digest, sha256_fd(fd.get(), path.string() + ": ", counted));
  out.sha256 = to_hex(digest.data(), digest.size());
  return out;
}

} // namespace envlock::util
