#include "util/dir.hpp"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <memory>
#include <unistd.h>

namespace envlock::util {

namespace {

// An open directory stream, closed (with its descriptor) by the destructor.
struct DirCloser {
  void operator()(DIR* stream) const { ::closedir(stream); }
};
using DirStream = std::unique_ptr<DIR, DirCloser>;

} // namespace

Result<std::vector<std::string>> names_in_folder(int dir, const std::string& shown, ExitCode code) {
  const auto fail = [&](const char* what) {
    return Error{code, shown + ": " + what + ": " + std::strerror(errno)};
  };
  // A descriptor of its own, so that reading the stream does not move `dir`'s position.
  const int own = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (own < 0) {
    return fail("cannot open");
  }
  const DirStream stream(::fdopendir(own));
  if (!stream) {
    ::close(own);
    return fail("cannot list");
  }
  std::vector<std::string> names;
  errno = 0;
  while (const dirent* entry = ::readdir(stream.get())) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") {
      names.push_back(name);
    }
  }
  if (errno != 0) {
    return fail("cannot list");
  }
  return names;
}

} // namespace envlock::util
