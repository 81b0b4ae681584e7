#include "verify/torch_install.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"

namespace envlock::verify {

std::map<std::string, std::string> parse_version_py(std::string_view text) {
  std::map<std::string, std::string> out;
  for (const auto& raw : util::split(text, '\n')) {
    const std::string_view line = util::trim(raw);
    const auto eq = line.find('=');
    if (line.empty() || line.front() == '#' || eq == std::string_view::npos) {
      continue;
    }
    std::string_view name = util::trim(line.substr(0, eq));
    name = util::trim(name.substr(0, name.find(':')));
    const std::string_view value = util::trim(line.substr(eq + 1));
    if (value.size() < 2 || (value.front() != '\'' && value.front() != '"')) {
      continue;
    }
    const auto close = value.find(value.front(), 1);
    if (close != std::string_view::npos) {
      out[std::string(name)] = std::string(value.substr(1, close - 1));
    }
  }
  return out;
}

std::optional<TorchInstall> find_torch(const SitePackages& sites) {
  std::vector<std::filesystem::path> all = sites.own;
  all.insert(all.end(), sites.inherited.begin(), sites.inherited.end());
  for (const auto& site : all) {
    auto text = util::read_file_limited(site / "torch" / "version.py", 1 << 20);
    if (!text) {
      continue;
    }
    auto values = parse_version_py(*text);
    if (values.count("__version__") == 0) {
      continue;
    }
    return TorchInstall{site / "torch", values["__version__"], values["cuda"],
                        values["git_version"]};
  }
  return std::nullopt;
}

} // namespace envlock::verify
