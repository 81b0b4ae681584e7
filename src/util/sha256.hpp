// SHA-256 behind one interface. The full tool links the OpenSSL back end
// (sha256_openssl.cpp); the verifier links a portable one (sha256_portable.cpp) so that it needs
// nothing but glibc at run time.
#pragma once

#include "util/result.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace envlock::util {

using Sha256Bytes = std::array<std::uint8_t, 32>;

// Incremental hashing: update() any number of times, then finish() once.
class Sha256 {
public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;

  void update(const void* data, std::size_t size);
  void update(std::string_view data) { update(data.data(), data.size()); }
  Sha256Bytes finish();
  // finish() as 64 lowercase hex digits.
  std::string finish_hex();

private:
  struct State;
  std::unique_ptr<State> m_state;
};

// Lowercase hex of bytes.
std::string to_hex(const std::uint8_t* data, std::size_t size);

// The sha256 of `data` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view data);

// Told the bytes hashed so far, after each chunk.
using Sha256Progress = std::function<void(std::uint64_t hashed)>;

// The sha256 of everything left to read from `fd`, streamed in 1 MiB reads: the one file-hashing
// loop. A read error is an input error "`error_prefix`<the system's reason>".
Result<Sha256Bytes> sha256_fd(int fd, const std::string& error_prefix,
                              const Sha256Progress& progress = {});

// A file's sha256 (64 lowercase hex digits) and its size in bytes.
struct FileDigest {
  std::string sha256;
  std::uint64_t size = 0;
};

// Hashes a regular file (util::open_regular_file: a FIFO or a device is refused, never read) with
// sha256_fd; an input error "PATH: REASON" when it cannot be opened or read.
Result<FileDigest> sha256_file(const std::filesystem::path& path,
                               const Sha256Progress& progress = {});

// The sha256 of a regular file's contents as 64 lowercase hex digits, streamed; an input error
// names the path when it is not a regular file or cannot be read.
Result<std::string> sha256_file_hex(const std::filesystem::path& path);

} // namespace envlock::util
