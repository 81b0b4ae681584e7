// RootDir: a folder taken as the root of a file system tree (an unpacked image, a mounted
// squashfs), whose paths are resolved the way a chroot into it would resolve them: component by
// component, every symbolic link followed relative to the root (an absolute target starts again
// at the root, a relative one from the link's folder), ".." stopping at the root. Nothing outside
// the folder is ever reached through a path of the tree.
//
// Two resolvers do this: the kernel's (openat2 with RESOLVE_IN_ROOT), used where the kernel has
// it, and a walk in user space (one openat per component, never following a link itself) for
// older kernels. ENVLOCK_ROOT_RESOLVER=user-space forces the walk (the tests run both).
#pragma once

#include "util/fd.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <vector>

namespace envlock::util {

enum class RootResolver { kernel, user_space };

// The resolver to use here: user_space when ENVLOCK_ROOT_RESOLVER is "user-space" or the kernel
// lacks openat2 (before Linux 5.6, or refused by a seccomp filter), else kernel.
RootResolver default_root_resolver();

// What a file found in the tree is (stat, links followed inside the root).
struct RootEntry {
  std::string name; // the entry's name in its folder
  mode_t mode = 0;  // its type and permissions after following links; 0 when a link is broken
};

class RootDir {
public:
  // Opens the folder `dir` as the root; an input error "DIR: not a folder" or "DIR: REASON".
  static Result<RootDir> open(const std::filesystem::path& dir,
                              RootResolver resolver = default_root_resolver());

  [[nodiscard]] RootResolver resolver() const { return m_resolver; }

  // Every error below names `path` as given and is an input error: "PATH: REASON" with the
  // system's reason ("No such file or directory", "Too many levels of symbolic links").
  // `path` is a path inside the tree, "/usr/lib" and "usr/lib" alike.

  // stat() of what `path` names, links followed inside the root.
  [[nodiscard]] Result<struct stat> stat(std::string_view path) const;
  // The path inside the tree `path` leads to: absolute, every link followed, no "." or "..":
  // "/usr/local/cuda/version.json" is "/usr/local/cuda-13.3/version.json" when usr/local/cuda
  // links (perhaps through /etc/alternatives) to cuda-13.3.
  [[nodiscard]] Result<std::string> real_path(std::string_view path) const;
  // A regular file opened for reading, never blocking on open: "PATH: is a FIFO, not a regular
  // file" (likewise a device, a socket, a folder) without opening anything else.
  [[nodiscard]] Result<Fd> open_regular(std::string_view path) const;
  // The whole of a regular file of at most `limit` bytes: "PATH: larger than LIMIT bytes" before
  // anything is read when its size says so, or as soon as more is read.
  [[nodiscard]] Result<std::string> read(std::string_view path, std::uintmax_t limit) const;
  // The entries of a folder, sorted by name, each stat()ed inside the root.
  [[nodiscard]] Result<std::vector<RootEntry>> list(std::string_view path) const;

private:
  RootDir(Fd fd, RootResolver resolver) : m_fd(std::move(fd)), m_resolver(resolver) {}
  // What the walk in user space found: an O_PATH descriptor of the file, of its folder (none
  // for the root's own entries: the root is the folder) and its name there, and its path.
  struct Walked {
    Fd target;
    Fd parent;
    std::string name;
    std::string real;
  };
  [[nodiscard]] Result<Walked> walk(std::string_view path) const;
  // An O_PATH descriptor of what `path` names (the last link followed too), by the resolver.
  [[nodiscard]] Result<Fd> resolve(std::string_view path) const;

  Fd m_fd;
  RootResolver m_resolver;
};

// Reads the regular file open at `fd` (at most `limit` bytes, else "SHOWN: larger than LIMIT
// bytes"); `shown` names it in errors.
Result<std::string> read_open_file(int fd, const std::string& shown, std::uintmax_t limit);

} // namespace envlock::util
