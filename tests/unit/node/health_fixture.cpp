#include "health_fixture.hpp"

#include "util/json.hpp"

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace envlock::test {

namespace fs = std::filesystem;
using nlohmann::json;

HealthNode::HealthNode(const std::string& name) : m_dir(temp_dir("envlock-health")), m_name(name) {
  const fs::path data = data_path("node/health/" + name);
  std::ifstream in(data / "nvml.json");
  scenario = json::parse(in);
  root = m_dir.path() / "root";
  fs::copy(data / "root", root, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  // A node's system files are writable by their owner alone, whatever the checkout's umask.
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_symlink()) {
      fs::permissions(entry.path(), fs::perms::group_write | fs::perms::others_write,
                      fs::perm_options::remove);
    }
  }
  if (fs::exists(data / "dmesg.txt")) {
    dmesg_log = data / "dmesg.txt";
  }
}

void HealthNode::write(const std::string& path, const std::string& text) const {
  write_text(root / fs::path(path).relative_path(), text);
}

json HealthNode::facts() const {
  const fs::path scenario_file = m_dir.path() / "nvml.json";
  write_text(scenario_file, scenario.dump(2));
  // NOLINTBEGIN(concurrency-mt-unsafe): the tests run on one thread
  setenv("ENVLOCK_NVML_SCENARIO", scenario_file.c_str(), 1);
  const std::string old_path = std::getenv("PATH") == nullptr ? "" : std::getenv("PATH");
  node::HostSources sources;
  sources.root = root;
  sources.nvml = {ENVLOCK_NVML_STANDIN};
  sources.dcgm = node::DcgmDiag::skip;
  sources.run_programs = !dmesg_log.empty();
  if (sources.run_programs) {
    // Only the dmesg stand-in: the other tools the facts ask are not found.
    setenv("PATH", data_path("node/health/bin").c_str(), 1);
    setenv("ENVLOCK_DMESG_LOG", dmesg_log.c_str(), 1);
  }
  json facts = node::collect_host_facts(sources);
  setenv("PATH", old_path.c_str(), 1);
  unsetenv("ENVLOCK_DMESG_LOG");
  // NOLINTEND(concurrency-mt-unsafe)
  return facts;
}

std::vector<verify::CheckResult>
HealthNode::checks(const node::health::JudgeOptions& options) const {
  return node::health::check_health(facts(), options);
}

node::health::JudgeOptions HealthNode::gpu_node() {
  node::health::JudgeOptions options;
  options.gpus = node::health::GpusExpected::yes;
  return options;
}

const verify::CheckResult& check_of(const std::vector<verify::CheckResult>& checks,
                                    const std::string& id) {
  for (const auto& c : checks) {
    if (c.id == id) {
      return c;
    }
  }
  throw std::runtime_error("no check " + id);
}

std::vector<std::string> failed_ids(const std::vector<verify::CheckResult>& checks) {
  std::vector<std::string> out;
  for (const auto& c : checks) {
    if (c.outcome == verify::Outcome::fail) {
      out.push_back(c.id);
    }
  }
  return out;
}

} // namespace envlock::test
