#include "node/slurm_plugins.hpp"

#include "node/fact.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <system_error>

namespace envlock::node {

namespace fs = std::filesystem;

namespace {

const std::vector<std::string>& plugin_dirs() {
  static const std::vector<std::string> dirs = {"/usr/lib/x86_64-linux-gnu/slurm",
                                                "/usr/lib/aarch64-linux-gnu/slurm",
                                                "/usr/lib64/slurm",
                                                "/usr/lib/slurm",
                                                "/usr/local/lib/slurm",
                                                "/usr/local/lib64/slurm"};
  return dirs;
}

// plugstack.conf and the files of plugstack.conf.d, in a fixed order.
std::vector<std::string> plugstack_files(const fs::path& root) {
  std::vector<std::string> out;
  for (const char* dir : {"/etc/slurm", "/etc/slurm-llnl", "/usr/local/etc/slurm"}) {
    out.push_back(std::string(dir) + "/plugstack.conf");
    std::error_code ec;
    const fs::path d = root / fs::path(std::string(dir) + "/plugstack.conf.d").relative_path();
    std::vector<std::string> extra;
    for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
      extra.push_back(std::string(dir) + "/plugstack.conf.d/" + it->path().filename().string());
    }
    std::sort(extra.begin(), extra.end());
    out.insert(out.end(), extra.begin(), extra.end());
  }
  return out;
}

} // namespace

void add_pyxis(nlohmann::json& facts, const fs::path& root) {
  facts["pyxis"] = missing_fact("slurm plugin folders",
                                "spank_pyxis.so not found in " + util::join(plugin_dirs(), ", "));
  for (const auto& dir : plugin_dirs()) {
    const std::string file = dir + "/spank_pyxis.so";
    std::error_code ec;
    if (fs::exists(root / fs::path(file).relative_path(), ec)) {
      facts["pyxis"] = found_fact(file, file);
      break;
    }
  }
  facts["pyxis.plugstack"] =
      missing_fact("plugstack.conf", "no plugstack.conf loads spank_pyxis.so");
  for (const auto& file : plugstack_files(root)) {
    std::string why;
    const auto text = read_host_file(root, file, why);
    if (!text) {
      continue;
    }
    for (const auto& line : util::split(*text, '\n')) {
      const std::string_view l = util::trim(line);
      if (!l.empty() && l.front() != '#' && l.find("spank_pyxis.so") != std::string_view::npos) {
        facts["pyxis.plugstack"] = found_fact(std::string(l), file);
        return;
      }
    }
  }
}

} // namespace envlock::node
