#include "../testutil.hpp"
#include "node/fact.hpp"
#include "node/facts.hpp"
#include "node/os_release.hpp"

#include <doctest/doctest.h>

using namespace envlock;
using nlohmann::json;

namespace {

json facts_of_fixture() {
  node::HostSources sources;
  sources.root = test::data_path("node/root");
  sources.nvml = {"libenvlock-no-such-nvml.so.1"};
  sources.run_programs = false;
  return node::collect_host_facts(sources);
}

} // namespace

TEST_SUITE("node.facts") {
  TEST_CASE("reads DMI, os-release, kernel, driver and Pyxis from a host tree") {
    const json f = facts_of_fixture();
    CHECK(f["schema"] == "envlock.node-facts/v1");
    const json& facts = f["facts"];
    CHECK(facts["hardware.vendor"] ==
          json{{"value", "Supermicro"}, {"source", "/sys/class/dmi/id/sys_vendor"}});
    CHECK(facts["bios.version"]["value"] == "2.1a");
    CHECK(facts["os"] == json{{"value", "Ubuntu 24.04"}, {"source", "/etc/os-release"}});
    CHECK(facts["os.pretty"]["value"] == "Ubuntu 24.04.3 LTS");
    CHECK(facts["kernel"]["value"] == "6.8.0-45-generic");
    CHECK(facts["driver"] ==
          json{{"value", "580.65.06"}, {"source", "/proc/driver/nvidia/version"}});
    CHECK(facts["pyxis"]["value"] == "/usr/lib/x86_64-linux-gnu/slurm/spank_pyxis.so");
    CHECK(facts["pyxis.plugstack"]["source"] == "/etc/slurm/plugstack.conf.d/pyxis.conf");
  }

  TEST_CASE("what cannot be read is missing, with the reason") {
    const json f = facts_of_fixture();
    const json& facts = f["facts"];
    CHECK(facts["gpu.count"] == json{{"value", nullptr},
                                     {"source", "nvml"},
                                     {"missing", "libenvlock-no-such-nvml.so.1 not found"}});
    CHECK(f["gpus"] == json::array());
    CHECK(facts["docker"]["missing"] == "programs not run (offline facts)");
    for (const auto& key : node::fact_keys()) {
      CHECK_MESSAGE(facts.contains(key), key);
    }
    CHECK(facts.size() == node::fact_keys().size());
  }

  TEST_CASE("a missing file names its path") {
    const json fact = node::file_fact(test::data_path("node/root"), "/sys/class/dmi/id/chassis_x");
    CHECK(fact == json{{"value", nullptr},
                       {"source", "/sys/class/dmi/id/chassis_x"},
                       {"missing", "/sys/class/dmi/id/chassis_x: not found"}});
  }

  TEST_CASE("version tokens in tool output") {
    CHECK(node::first_version("Docker version 27.3.1, build ce12230") == "27.3.1");
    CHECK(node::first_version("slurm 22.05.8") == "22.05.8");
    CHECK(node::first_version("cli-version: 1.17.8\nlib-version: 1.17.8") == "1.17.8");
    CHECK(node::first_version("Fabric Manager version is : 580.65.06") == "580.65.06");
    CHECK(node::first_version("no numbers 12 here") == "");
  }

  TEST_CASE("os-release quoting and comments") {
    const auto f =
        node::parse_os_release("# x\nNAME='Debian GNU/Linux'\nVERSION_ID=\"12\"\nID=debian\n");
    CHECK(f.at("NAME") == "Debian GNU/Linux");
    CHECK(f.at("VERSION_ID") == "12");
    CHECK(f.size() == 3);
  }
}
