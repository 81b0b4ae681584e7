#include "manifest/source_file.hpp"

#include "util/fs.hpp"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <system_error>

namespace envlock::manifest {

namespace fs = std::filesystem;

namespace {

bool is_inside(const fs::path& path, const fs::path& folder) {
  auto p = path.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
    if (p == path.end() || *p != *f) {
      return false;
    }
  }
  return p != path.end();
}

// Where a link leads, for the message: the link's own text when `path` is one, else the resolved
// path (a folder on the way was the link).
std::string link_target(const fs::path& path, const fs::path& resolved) {
  std::error_code ec;
  const fs::path text = fs::read_symlink(path, ec);
  return ec ? resolved.string() : text.string();
}

Status check_inside_project(const fs::path& path) {
  std::error_code ec;
  const fs::path resolved = fs::canonical(path, ec);
  if (ec) {
    return input_error(path.string() + ": " + ec.message());
  }
  const fs::path project = project_folder(path);
  const fs::path root = fs::canonical(project, ec);
  if (ec) {
    return input_error(project.string() + ": " + ec.message());
  }
  if (is_inside(resolved, root)) {
    return {};
  }
  return input_error(path.string() + ": a symbolic link leading outside the project (to " +
                     link_target(path, resolved) + "); a manifest must be a file inside " +
                     project.string());
}

} // namespace

fs::path project_folder(const fs::path& file) {
  std::error_code ec;
  const fs::path folder = fs::absolute(file, ec).lexically_normal().parent_path();
  for (fs::path at = folder; !at.empty(); at = at.parent_path()) {
    if (fs::exists(fs::symlink_status(at / ".git", ec))) {
      return at;
    }
    if (at == at.root_path()) {
      break;
    }
  }
  return folder;
}

Result<std::string> read_source_file(const fs::path& path, std::uintmax_t limit, LinkRule rule) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return input_error(path.string() + ": " + std::strerror(errno));
  }
  if (rule == LinkRule::inside_project) {
    ENVLOCK_TRY(check_inside_project(path));
  }
  return util::read_regular_file(path, limit);
}

} // namespace envlock::manifest
