#include "resolve/resolve.hpp"

#include "util/fs.hpp"
#include "util/sha256.hpp"

namespace envlock::resolve {

Result<nlohmann::json> hash_context_files(const manifest::Manifest& manifest) {
  const auto build = manifest.extra.find("build");
  if (build == manifest.extra.end() || !build->contains("context")) {
    return nlohmann::json();
  }
  nlohmann::json files = nlohmann::json::array();
  for (const auto& item : build->at("context")) {
    const std::string path = item.get<std::string>();
    if (!util::is_relative_inside(path)) {
      return input_error("build.context: '" + path +
                         "' must be a relative path inside the manifest's folder");
    }
    const std::string normal = std::filesystem::path(path).lexically_normal().generic_string();
    auto hash = util::sha256_file_hex(manifest.dir / normal);
    if (!hash) {
      return input_error("build.context: cannot read " + normal);
    }
    files.push_back({{"path", normal}, {"sha256", *hash}});
  }
  return files;
}

} // namespace envlock::resolve
