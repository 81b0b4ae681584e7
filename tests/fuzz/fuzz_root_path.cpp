// Paths inside a root (util::RootDir, what envlock-verify --root reads through): the input
// builds a random tree of folders, files and symbolic links (absolute and relative targets,
// "..", ".", empty parts, links to links and loops) beside a folder outside it, then resolves
// random paths with the user-space walk and, where the kernel has openat2, with the kernel.
// Whatever the tree, a path never leads out of the root: every file found is one of the tree's
// own, the path the walk reports is absolute without ".", ".." or a link in it, and both
// resolvers find the same file or both fail.
#include "util/fs.hpp"
#include "util/root_dir.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace envlock;
namespace fs = std::filesystem;

namespace {

class Input {
public:
  Input(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}
  [[nodiscard]] bool empty() const { return m_at >= m_size; }
  std::uint8_t next() { return m_at < m_size ? m_data[m_at++] : 0; }

private:
  const std::uint8_t* m_data;
  std::size_t m_size;
  std::size_t m_at = 0;
};

// A path of up to 6 parts drawn from names, "..", "." and empty parts, perhaps absolute.
std::string random_path(Input& in) {
  static const char* const k_parts[] = {"a", "b", "c", "..", ".", "", "out", "img", "x"};
  const std::uint8_t head = in.next();
  std::string out = (head & 1U) != 0 ? "/" : "";
  const int parts = 1 + (head >> 1U) % 6;
  for (int i = 0; i < parts; ++i) {
    if (i > 0) {
      out += '/';
    }
    out += k_parts[in.next() % (sizeof k_parts / sizeof k_parts[0])];
  }
  return out;
}

// The inodes of everything in the tree, the root included.
std::set<std::pair<dev_t, ino_t>> tree_inodes(const fs::path& root) {
  std::set<std::pair<dev_t, ino_t>> out;
  struct stat st {};
  if (::lstat(root.c_str(), &st) == 0) {
    out.emplace(st.st_dev, st.st_ino);
  }
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (::lstat(it->path().c_str(), &st) == 0) {
      out.emplace(st.st_dev, st.st_ino);
    }
  }
  return out;
}

// The path the walk reports: absolute, no ".", ".." or empty part, and no part a link.
bool clean_inside(const fs::path& root, const std::string& real) {
  if (real.empty() || real.front() != '/') {
    return false;
  }
  if (real == "/") {
    return true;
  }
  std::string host = root.string();
  std::size_t start = 1;
  while (start <= real.size()) {
    const std::size_t slash = real.find('/', start);
    const std::string part =
        real.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part.empty() || part == "." || part == "..") {
      return false;
    }
    host += "/" + part;
    struct stat st {};
    if (::lstat(host.c_str(), &st) != 0 || S_ISLNK(st.st_mode)) {
      return false;
    }
    if (slash == std::string::npos) {
      break;
    }
    start = slash + 1;
  }
  return true;
}

// The host path of a new entry at `path` inside `root`, its parent folders made: nothing when the
// path has a ".." or passes through anything but a real folder (the tree is built without
// following its own links, so nothing is ever created outside it), or the entry exists.
std::optional<fs::path> new_entry(const fs::path& root, const std::string& path) {
  fs::path host = root;
  std::vector<std::string> parts;
  for (const auto& part : fs::path(path).relative_path()) {
    const std::string name = part.string();
    if (name == "..") {
      return std::nullopt;
    }
    if (!name.empty() && name != ".") {
      parts.push_back(name);
    }
  }
  if (parts.empty()) {
    return std::nullopt;
  }
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    host /= parts[i];
    struct stat st {};
    if (::lstat(host.c_str(), &st) != 0) {
      if (::mkdir(host.c_str(), 0700) != 0) {
        return std::nullopt;
      }
    } else if (!S_ISDIR(st.st_mode)) {
      return std::nullopt;
    }
  }
  host /= parts.back();
  struct stat st {};
  if (::lstat(host.c_str(), &st) == 0) {
    return std::nullopt;
  }
  return host;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto temp = util::TempDir::create("envlock-fuzz-root");
  if (!temp) {
    return 0;
  }
  const fs::path root = temp->path() / "img";
  const fs::path outside = temp->path() / "out";
  fs::create_directories(root);
  fs::create_directories(outside / "a");
  if (!util::write_file_atomic(outside / "b", "outside")) {
    std::abort();
  }
  Input in(data, size);
  // The tree: up to 24 entries, each a folder, a file or a link, at a random place.
  for (int i = 0; i < 24 && !in.empty(); ++i) {
    const std::uint8_t kind = in.next() % 3;
    const auto where = new_entry(root, random_path(in));
    std::string target = random_path(in);
    if ((in.next() & 3U) == 0) {
      target = outside.string() + "/" + target; // an absolute host path
    }
    if (!where) {
      continue;
    }
    if (kind == 0) {
      (void)::mkdir(where->c_str(), 0700);
    } else if (kind == 1) {
      const int fd = ::open(where->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
      if (fd >= 0) {
        ::close(fd);
      }
    } else {
      (void)::symlink(target.c_str(), where->c_str());
    }
  }
  const auto inodes = tree_inodes(root);
  const auto user = util::RootDir::open(root, util::RootResolver::user_space);
  if (!user) {
    std::abort();
  }
  const bool kernel_too = util::default_root_resolver() == util::RootResolver::kernel;
  const auto kernel = util::RootDir::open(root, util::RootResolver::kernel);
  for (int q = 0; q < 8 && !in.empty(); ++q) {
    const std::string path = random_path(in);
    const auto walked = user->stat(path);
    const auto real = user->real_path(path);
    if (walked.has_value() != real.has_value()) {
      std::abort();
    }
    if (walked) {
      if (inodes.count({walked->st_dev, walked->st_ino}) == 0 || !clean_inside(root, *real)) {
        std::abort(); // a path led out of the root
      }
      struct stat at_real {};
      if (::stat((root.string() + *real).c_str(), &at_real) != 0 ||
          at_real.st_ino != walked->st_ino) {
        std::abort(); // the reported path is not the file found
      }
    }
    if (kernel_too && kernel) {
      const auto by_kernel = kernel->stat(path);
      if (by_kernel.has_value() != walked.has_value() ||
          (by_kernel && (by_kernel->st_ino != walked->st_ino ||
                         inodes.count({by_kernel->st_dev, by_kernel->st_ino}) == 0))) {
        std::abort(); // the two resolvers disagree
      }
    }
  }
  return 0;
}
