#include "verify/probes/torch_install.hpp"

#include "util/fs.hpp"
#include "util/key_value.hpp"
#include "util/strings.hpp"

namespace envlock::verify {

namespace {

constexpr std::uintmax_t k_version_py_limit = 1 << 20;

} // namespace

std::map<std::string, std::string> parse_version_py(std::string_view text) {
  // `name: type = 'value'  # comment`: the annotation and anything after the closing quote go.
  std::map<std::string, std::string> out;
  util::for_each_key_value(text, [&](std::string_view key, std::string_view raw) {
    const std::string_view name = util::trim(key.substr(0, key.find(':')));
    const std::string_view value = util::trim(raw);
    if (value.size() < 2 || (value.front() != '\'' && value.front() != '"')) {
      return;
    }
    const auto close = value.find(value.front(), 1);
    if (close != std::string_view::npos) {
      out[std::string(name)] = std::string(value.substr(1, close - 1));
    }
  });
  return out;
}

std::optional<TorchInstall> find_torch(const RunContext& context, const PythonEnvironment& env) {
  std::vector<std::filesystem::path> all = env.sites;
  all.insert(all.end(), env.inherited_sites.begin(), env.inherited_sites.end());
  for (const auto& site : all) {
    const auto file = site / "torch" / "version.py";
    auto text = context.read(file, k_version_py_limit);
    if (!text) {
      if (!context.is_missing(file)) {
        TorchInstall unreadable;
        unreadable.dir = site / "torch";
        unreadable.problem = text.error().message;
        return unreadable;
      }
      continue;
    }
    auto values = parse_version_py(*text);
    if (values.count("__version__") == 0) {
      continue;
    }
    return TorchInstall{site / "torch", values["__version__"], values["cuda"],
                        values["git_version"], ""};
  }
  return std::nullopt;
}

} // namespace envlock::verify
