#include "node/facts.hpp"

#include "node/fact.hpp"
#include "node/gpus.hpp"
#include "node/health/health_facts.hpp"
#include "node/os_release.hpp"
#include "node/slurm_plugins.hpp"
#include "util/strings.hpp"

#include <cstdlib>
#include <future>
#include <set>
#include <sys/utsname.h>

namespace envlock::node {

using nlohmann::json;

namespace {

void add_dmi(json& facts, const std::filesystem::path& root) {
  facts["hardware.vendor"] = file_fact(root, "/sys/class/dmi/id/sys_vendor");
  facts["hardware.product"] = file_fact(root, "/sys/class/dmi/id/product_name");
  facts["hardware.serial"] = file_fact(root, "/sys/class/dmi/id/product_serial");
  facts["bios.vendor"] = file_fact(root, "/sys/class/dmi/id/bios_vendor");
  facts["bios.version"] = file_fact(root, "/sys/class/dmi/id/bios_version");
  facts["bios.date"] = file_fact(root, "/sys/class/dmi/id/bios_date");
}

void add_kernel(json& facts, const std::filesystem::path& root) {
  facts["kernel"] = file_fact(root, "/proc/sys/kernel/osrelease");
  utsname u{};
  if (uname(&u) == 0) {
    facts["arch"] = found_fact(u.machine, "uname");
  } else {
    facts["arch"] = missing_fact("uname", "uname failed");
  }
}

// "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  Release Build ..."
void add_driver(json& facts, const std::filesystem::path& root, const GpuInventory& gpus) {
  const std::string path = "/proc/driver/nvidia/version";
  std::string why;
  const auto text = read_host_file(root, path, why);
  if (text) {
    const std::string line = text->substr(0, text->find('\n'));
    const auto module = line.find("Module");
    const std::string version =
        first_version(module == std::string::npos ? line : line.substr(module));
    facts["driver"] = version.empty() ? missing_fact(path, path + ": no version in its first line")
                                      : found_fact(version, path);
  } else if (!gpus.driver.empty()) {
    facts["driver"] = found_fact(gpus.driver, gpus.source);
  } else {
    facts["driver"] = missing_fact(path, why);
  }
}

void add_gpu_summary(json& facts, const GpuInventory& inv) {
  if (!inv.missing.empty()) {
    for (const char* key : {"gpu.count", "gpu.model", "gpu.vbios"}) {
      facts[key] = missing_fact("nvml", inv.missing);
    }
    return;
  }
  std::set<std::string> models;
  std::set<std::string> vbios;
  for (const auto& g : inv.gpus) {
    if (g.value("name", json()).is_string()) {
      models.insert(g["name"].get<std::string>());
    }
    if (g.value("vbios", json()).is_string()) {
      vbios.insert(g["vbios"].get<std::string>());
    }
  }
  auto joined = [](const std::set<std::string>& s) {
    std::string out;
    for (const auto& v : s) {
      out += (out.empty() ? "" : ", ") + v;
    }
    return out;
  };
  facts["gpu.count"] = found_fact(std::to_string(inv.gpus.size()), inv.source);
  facts["gpu.model"] = models.empty() ? missing_fact(inv.source, "no GPU reported a name")
                                      : found_fact(joined(models), inv.source);
  facts["gpu.vbios"] = vbios.empty() ? missing_fact(inv.source, "no GPU reported a VBIOS version")
                                     : found_fact(joined(vbios), inv.source);
}

void add_programs(json& facts, bool run_programs) {
  const std::vector<std::pair<const char*, std::vector<std::string>>> programs = {
      {"fabric_manager", {"nv-fabricmanager", "--version"}},
      {"nvlsm", {"nvlsm", "--version"}},
      {"container_toolkit", {"nvidia-container-cli", "--version"}},
      {"docker", {"docker", "--version"}},
      {"enroot", {"enroot", "version"}},
      {"slurm", {"slurmd", "-V"}},
  };
  for (const auto& [key, argv] : programs) {
    facts[key] = run_programs ? program_version_fact(argv)
                              : missing_fact(argv.front(), "programs not run (offline facts)");
  }
  if (run_programs && facts["slurm"]["value"].is_null()) {
    json sinfo = program_version_fact({"sinfo", "-V"});
    if (!sinfo["value"].is_null()) {
      facts["slurm"] = sinfo;
    }
  }
}

} // namespace

const std::vector<std::string>& fact_keys() {
  static const std::vector<std::string> keys = {"arch",
                                                "bios.date",
                                                "bios.vendor",
                                                "bios.version",
                                                "container_toolkit",
                                                "docker",
                                                "driver",
                                                "enroot",
                                                "fabric_manager",
                                                "gpu.count",
                                                "gpu.model",
                                                "gpu.vbios",
                                                "hardware.product",
                                                "hardware.serial",
                                                "hardware.vendor",
                                                "kernel",
                                                "nvlsm",
                                                "os",
                                                "os.id",
                                                "os.pretty",
                                                "os.version_id",
                                                "pyxis",
                                                "pyxis.plugstack",
                                                "slurm"};
  return keys;
}

json collect_host_facts(const HostSources& sources) {
  const bool with_health = sources.health == HealthFacts::read;
  // The GPUs (NVML, ~70 ms a GPU with health) are read while the facts that do not need them are.
  auto gpu_read = std::async(std::launch::async, [&sources, with_health]() {
    return read_gpus(sources.nvml, sources.run_programs,
                     with_health ? health::gpu_health_reader(sources.root) : PerGpuReader(),
                     sources.nvml_deadline);
  });
  json facts = json::object();
  add_dmi(facts, sources.root);
  add_os_release(facts, sources.root);
  add_kernel(facts, sources.root);
  add_programs(facts, sources.run_programs);
  add_pyxis(facts, sources.root);
  health::HostHealth host_health;
  health::HealthSources health_sources;
  if (with_health) {
    health_sources.root = sources.root;
    health_sources.dmesg = sources.run_programs ? health::RunDmesg::yes : health::RunDmesg::no;
    health_sources.dcgm = sources.run_programs && sources.dcgm == DcgmDiag::run
                              ? health::RunDcgm::yes
                              : health::RunDcgm::no;
    host_health = health::read_host_health(health_sources);
  }
  const GpuInventory gpus = gpu_read.get();
  add_driver(facts, sources.root, gpus);
  add_gpu_summary(facts, gpus);
  nlohmann::json out = {{"schema", k_facts_schema}, {"facts", facts}, {"gpus", gpus.gpus}};
  if (with_health) {
    // DCGM's diagnostic runs after NVML is read, never beside it: what it does on the GPUs must
    // not show in the readings (a process holding a GPU, clocks).
    host_health.host["dcgm"] = health::run_dcgm_diag(health_sources.dcgm);
    out["health"] = health::collect_health(sources.root, std::move(host_health), gpus);
  }
  make_valid_utf8(out);
  return out;
}

void make_valid_utf8(json& value) {
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (util::invalid_utf8_at(text)) {
      value = util::escape_invalid_utf8(text);
    }
    return;
  }
  if (value.is_array()) {
    for (auto& item : value) {
      make_valid_utf8(item);
    }
    return;
  }
  if (!value.is_object()) {
    return;
  }
  bool keys_valid = true;
  for (auto& [key, item] : value.items()) {
    keys_valid = keys_valid && !util::invalid_utf8_at(key);
    make_valid_utf8(item);
  }
  if (!keys_valid) {
    json fixed = json::object();
    for (auto& [key, item] : value.items()) {
      fixed[util::escape_invalid_utf8(key)] = std::move(item);
    }
    value = std::move(fixed);
  }
}

HostSources host_sources_from_environment() {
  HostSources sources;
  // NOLINTNEXTLINE(concurrency-mt-unsafe): read before any thread starts
  if (const char* root = std::getenv("ENVLOCK_NODE_ROOT"); root != nullptr && *root != '\0') {
    sources.root = root;
  }
  // NOLINTNEXTLINE(concurrency-mt-unsafe)
  if (const char* nvml = std::getenv("ENVLOCK_NVML"); nvml != nullptr && *nvml != '\0') {
    sources.nvml = {nvml};
  }
  return sources;
}

json collect_host_facts() {
  return collect_host_facts(HostSources{});
}

} // namespace envlock::node
