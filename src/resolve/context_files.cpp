#include "resolve/resolve.hpp"

#include "util/fs.hpp"
#include "util/sha256.hpp"

namespace envlock::resolve {

Result<std::optional<std::vector<lock::ContextFile>>>
hash_context_files(const manifest::Manifest& manifest) {
  if (!manifest.build.context) {
    return std::optional<std::vector<lock::ContextFile>>();
  }
  std::vector<lock::ContextFile> files;
  for (const std::string& path : *manifest.build.context) {
    if (!util::is_relative_inside(path)) {
      return input_error("build.context: '" + path +
                         "' must be a relative path inside the manifest's folder");
    }
    const std::string normal = std::filesystem::path(path).lexically_normal().generic_string();
    auto fd = util::open_regular_file(manifest.dir / normal, UINTMAX_MAX, normal);
    if (!fd) {
      return input_error("build.context: cannot read " + fd.error().message);
    }
    auto digest = util::sha256_fd(fd->get(), normal + ": ");
    if (!digest) {
      return input_error("build.context: cannot read " + digest.error().message);
    }
    files.push_back(lock::ContextFile{normal, util::to_hex(digest->data(), digest->size())});
  }
  return std::optional<std::vector<lock::ContextFile>>(std::move(files));
}

} // namespace envlock::resolve
