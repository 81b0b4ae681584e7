// The health facts as read: the healthy H200 of the lab (shared NVML answers, /dev/kmsg not
// readable but dmesg is), the kernel log formats, PCIe speeds, XIDs and DCGM's JSON.
#include "health_fixture.hpp"
#include "node/health/dcgm.hpp"
#include "node/health/infiniband.hpp"
#include "node/health/kernel_log.hpp"
#include "node/health/pcie_sysfs.hpp"
#include "node/health/rules.hpp"
#include "node/health/xid_table.hpp"

#include <fstream>
#include <sstream>

using namespace envlock;
using nlohmann::json;
using test::check_of;
using test::failed_ids;
using test::HealthNode;

TEST_SUITE("node.health") {
  TEST_CASE("the healthy H200: every value as NVML gave it, no false failure") {
    const HealthNode node("h200");
    const json facts = node.facts();
    const json& g = facts["health"]["gpus"][0];
    const auto value = [&](const char* key) { return g[key]["value"]; };
    CHECK(value("pci.bus_id") == "00000000:00:06.0");
    CHECK(value("ecc.mode.current") == "enabled");
    CHECK(value("ecc.mode.pending") == "enabled");
    CHECK(value("ecc.uncorrected.volatile") == 0);
    CHECK(value("remapped_rows.pending") == false);
    CHECK(g["retired_pages.pending"] ==
          json{{"value", nullptr},
               {"source", "nvmlDeviceGetRetiredPagesPendingStatus"},
               {"missing", "nvmlDeviceGetRetiredPagesPendingStatus: NVML error 3 (Not Supported)"},
               {"not_supported", true}});
    CHECK(value("clocks.event_reasons") == "0x1");
    CHECK(value("clocks.event_reasons.active") == "idle");
    CHECK(value("temperature_c") == 33);
    CHECK(value("temperature.slowdown_c") == 89);
    CHECK(value("temperature.shutdown_c") == 95);
    CHECK(value("power.draw_w") == 77.34);
    CHECK(value("power.limit_w") == 700.0);
    CHECK(value("pcie.gen.current") == 5);
    CHECK(value("pcie.width.max") == 16);
    CHECK(value("pcie.sysfs.gen.current") == 5);
    CHECK(g["pcie.slot.address"]["missing"] ==
          "no upstream port: the GPU sits on root bus pci0000:00");
    CHECK(value("nvlink.links") == json::array());
    CHECK(value("fabric.state") == "not supported");
    CHECK(value("persistence") == "enabled");
    CHECK(value("mig.current") == "disabled");
    CHECK(value("compute_mode") == "default");
    CHECK(value("processes") == json::array());
    CHECK(value("inforom") == "valid");
    const json& host = facts["health"]["host"];
    CHECK(host["xids"] == json{{"value", json::array()}, {"source", "dmesg"}});
    CHECK(host["fabric_manager"] ==
          json{{"value", "not running"}, {"source", "/proc"}, {"not_installed", true}});
    CHECK(host["ib.ports"] == json{{"value", json::array()}, {"source", "/sys/class/infiniband"}});
    CHECK(host["nvidia_peermem"]["value"] == "not loaded");

    const auto checks = node::health::check_health(facts, HealthNode::gpu_node());
    CHECK(failed_ids(checks) == std::vector<std::string>{});
    for (const auto& c : checks) {
      CHECK_MESSAGE(c.reason.find("warning") == std::string::npos, (c.id + ": " + c.reason));
    }
    CHECK(check_of(checks, "health.gpu.hw_slowdown").found ==
          "not active (clock event reasons 0x1: idle) (GPU 0)");
    CHECK(check_of(checks, "health.gpu.retired_pages_pending").found ==
          "row remapping instead (GPU 0)");
    CHECK(check_of(checks, "health.gpu.temperature").found == "33 C, limit 89 C (GPU 0)");
    CHECK(check_of(checks, "health.pcie.gen").found == "gen 5 of 5 (GPU 0)");
    CHECK(check_of(checks, "health.nvlink.down").reason == "no NVLink link on any GPU");
    CHECK(check_of(checks, "health.fabric.state").reason ==
          "no GPU is on an NVLink fabric (no NVSwitch)");
    CHECK(check_of(checks, "health.fabric.manager_down").reason ==
          "no GPU is on an NVLink fabric (not running)");
    CHECK(check_of(checks, "health.ib.port_down").reason == "no InfiniBand/RoCE port");
    CHECK(check_of(checks, "health.gpu.xid").found == "no XID since boot (dmesg)");
  }

  TEST_CASE("the H200 whose fabric call answers Not Supported is the same node") {
    HealthNode node("h200");
    node.scenario["gpus"][0]["nvmlDeviceGetGpuFabricInfoV"] = {{"rc", 3}};
    const auto checks = node.checks();
    CHECK(failed_ids(checks) == std::vector<std::string>{});
    CHECK(check_of(checks, "health.fabric.state").outcome == verify::Outcome::skip);
  }

  TEST_CASE("the GPUs are read side by side, each answer at its own index") {
    // The stand-in holds nvmlDeviceValidateInforom until all eight GPUs are inside it at once:
    // read one after the other, the first would wait out the timeout and answer Timeout.
    HealthNode node("hgx");
    node.scenario["together"] = {
        {"call", "nvmlDeviceValidateInforom"}, {"gpus", 8}, {"timeout_ms", 5000}};
    for (std::size_t i = 0; i < 8; ++i) {
      node.scenario["gpus"][i]["nvmlDeviceGetUUID"] = "GPU-side-by-side-" + std::to_string(i);
    }
    const json facts = node.facts();
    REQUIRE(facts["health"]["gpus"].size() == 8);
    const json valid = {{"value", "valid"}, {"source", "nvmlDeviceValidateInforom"}};
    for (std::size_t i = 0; i < 8; ++i) {
      const json& g = facts["health"]["gpus"][i];
      CHECK(g["index"] == i);
      CHECK_MESSAGE(g["inforom"] == valid, i);
      CHECK(facts["gpus"][i]["index"] == i);
      CHECK(facts["gpus"][i]["uuid"] == "GPU-side-by-side-" + std::to_string(i));
    }
  }

  TEST_CASE("a GPU the stand-in holds past its timeout answers Timeout, never valid") {
    // The counterpart of the test above: nine GPUs never meet on an eight-GPU node.
    HealthNode node("hgx");
    node.scenario["together"] = {
        {"call", "nvmlDeviceValidateInforom"}, {"gpus", 9}, {"timeout_ms", 50}};
    const json facts = node.facts();
    REQUIRE(facts["health"]["gpus"].size() == 8);
    const json timed_out = {{"value", nullptr},
                            {"source", "nvmlDeviceValidateInforom"},
                            {"missing", "nvmlDeviceValidateInforom: NVML error 10 (Timeout)"}};
    for (const auto& g : facts["health"]["gpus"]) {
      CHECK(g["inforom"] == timed_out);
    }
  }

  TEST_CASE("XID lines of /dev/kmsg and of dmesg") {
    node::health::KernelLog kmsg;
    kmsg.text = "6,1,0,-;Linux version 6.8.0\n"
                "3,2001,7201234567,-;NVRM: Xid (PCI:0000:3B:00): 79, pid='<unknown>', "
                "name=<unknown>, GPU has fallen off the bus.\n"
                " SUBSYSTEM=pci\n"
                "4,2002,7301000000,-;NVRM: Xid (PCI:0000:3b:00 GPU-I:02): 13, pid=7, name=a\n";
    const auto events = node::health::parse_xids(kmsg);
    REQUIRE(events.size() == 2);
    CHECK(events[0].xid == 79);
    CHECK(events[0].pci == "0000:3b:00");
    CHECK(*events[0].seconds == doctest::Approx(7201.234567));
    CHECK(events[0].message == "pid='<unknown>', name=<unknown>, GPU has fallen off the bus.");
    CHECK(events[1].xid == 13);
    CHECK(events[1].pci == "0000:3b:00");
    node::health::KernelLog dmesg;
    dmesg.format = node::health::KernelLogFormat::dmesg;
    dmesg.text =
        "kern  :err   : [ 5107.644336] NVRM: Xid (PCI:0000:03:00): 79, GPU has fallen off "
        "the bus.\n"
        "kern  :err   : [ 5108.000000] NVRM: GPU 0000:03:00.0: GPU has fallen off the bus.\n"
        "kern  :warn  : NVRM: Xid (PCI:00000000:04:00.0): 48, An uncorrectable double bit "
        "error\n";
    const auto more = node::health::parse_xids(dmesg);
    REQUIRE(more.size() == 2);
    CHECK(*more[0].seconds == doctest::Approx(5107.644336));
    CHECK(more[0].message == "GPU has fallen off the bus.");
    CHECK(!more[1].seconds);
    CHECK(more[1].pci == "0000:04:00");
  }

  TEST_CASE("an XID counts by its source: the kernel's record whose message begins with it") {
    const std::string xid = "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.";
    node::health::KernelLog kmsg;
    kmsg.text =
        // a program's write to /dev/kmsg: facility user (1), whatever it wrote
        "12,10,1000,-;" + xid + "\n" + "8,11,1000,-;" + xid + "\n" + "14,12,1000,c;" + xid +
        "\n"
        // the kernel's record of a program crashing in a file named as the XID
        "6,13,2000,-;NVRM: Xid (PCI:[4242]: segfault at 0 ip 00005592eda2a139 sp "
        "00007ffc21a2e7f0 error 6 in " +
        xid +
        "[1139,5592eda2a000+1000] likely on CPU 1 (core 1, socket 0)\n"
        // the kernel naming a program, and the text mid-message
        "6,14,2000,-;NVRM: Xid (PCI (4242): drop_caches: 1\n"
        "4,15,2000,-;audit: " +
        xid +
        "\n"
        // a continuation and lines that are no record
        " " +
        xid + "\n" + "x,16,2000,-;" + xid + "\n" + "3,17;" + xid + "\n" + xid + "\n" +
        // an address that is not one, a number that is not one
        "3,18,2000,-;NVRM: Xid (PCI:0000:zz:00): 79, x\n" +
        "3,19,2000,-;NVRM: Xid (PCI:0000:3b:00): 79x, x\n";
    CHECK(node::health::parse_xids(kmsg).empty());
    kmsg.text += "3,20,3000000,-;" + xid + "\n";
    const auto events = node::health::parse_xids(kmsg);
    REQUIRE(events.size() == 1);
    CHECK(events[0].xid == 79);
    CHECK(*events[0].seconds == doctest::Approx(3.0));

    node::health::KernelLog dmesg;
    dmesg.format = node::health::KernelLogFormat::dmesg;
    dmesg.text = "user  :warn  : [ 1.0] " + xid + "\n" + "daemon:err   : [ 1.0] " + xid + "\n" +
                 "user  :warn  : [ 1.0] kern  :err   : [ 1.0] " + xid + "\n" +
                 "                      " + xid + "\n" + "[ 1.0] " + xid + "\n";
    CHECK(node::health::parse_xids(dmesg).empty());
  }

  TEST_CASE("an XID's message is cut before a character and kept valid UTF-8") {
    node::health::KernelLog kmsg;
    kmsg.text = "3,1,1000,-;NVRM: Xid (PCI:0000:3b:00): 999, " + std::string(159, 'A') +
                "\xc3\xa9\xff tail\n";
    const auto events = node::health::parse_xids(kmsg);
    REQUIRE(events.size() == 1);
    CHECK(events[0].message == std::string(159, 'A'));
    kmsg.text = "3,1,1000,-;NVRM: Xid (PCI:0000:3b:00): 999, A\xff\xfe\xc3\n";
    CHECK(node::health::parse_xids(kmsg).at(0).message == "A\\xff\\xfe\\xc3");
  }

  TEST_CASE("XID 154 is judged by the action it names") {
    using node::health::XidKind;
    CHECK(node::health::describe_xid(154, "GPU recovery action changed from 0x0 (None) to 0x1 "
                                          "(GPU Reset Required)")
              .kind == XidKind::reset_gpu);
    CHECK(node::health::describe_xid(154, "GPU recovery action changed from 0x1 (GPU Reset "
                                          "Required) to 0x0 (None)")
              .kind == XidKind::informational);
    CHECK(node::health::describe_xid(154, "from 0x0 (None) to 0x2 (Node Reboot Required)").kind ==
          XidKind::reboot);
    CHECK(node::health::describe_xid(79, "").kind == XidKind::reboot);
    CHECK(node::health::describe_xid(13, "").kind == XidKind::application);
    CHECK(node::health::describe_xid(1234, "").kind == XidKind::unknown);
  }

  TEST_CASE("PCIe speeds and NVML bus ids as sysfs writes them") {
    CHECK(node::health::pcie_gen_of_speed("32.0 GT/s PCIe") == 5);
    CHECK(node::health::pcie_gen_of_speed("16 GT/s") == 4);
    CHECK(node::health::pcie_gen_of_speed("2.5 GT/s PCIe") == 1);
    CHECK(!node::health::pcie_gen_of_speed("Unknown"));
    CHECK(node::health::sysfs_pci_name("00000000:3B:00.0") == "0000:3b:00.0");
    CHECK(!node::health::sysfs_pci_name("GPU-1"));
    CHECK(node::health::ib_rate_gbps("400 Gb/sec (4X NDR)") == 400.0);
    CHECK(node::health::ib_rate_gbps("2.5 Gb/sec (1X SDR)") == 2.5);
    CHECK(!node::health::ib_rate_gbps("Unknown"));
    for (const char* nonsense : {"nan Gb/sec (4X EDR)", "NAN Gb/sec", "inf Gb/sec", "-400 Gb/sec",
                                 "+400 Gb/sec", "0x190 Gb/sec", "1e3 Gb/sec", "400", "400 Gb/s",
                                 ".5 Gb/sec", "1. Gb/sec", "99999999999 Gb/sec"}) {
      CHECK_MESSAGE(!node::health::ib_rate_gbps(nonsense), nonsense);
    }
  }

  TEST_CASE("DCGM's quick diagnostic folded in: a failed test names the GPU") {
    const std::string out = R"({"DCGM Diagnostic": {"test_categories": [
      {"category": "Deployment", "tests": [{"name": "software", "results": [{"status": "Pass"}]}]},
      {"category": "Hardware", "tests": [{"name": "memory", "results": [
        {"entity_group": "GPU", "entity_id": 0, "status": "Pass"},
        {"entity_group": "GPU", "entity_id": 1, "status": "Fail",
         "warnings": [{"warning": "DBE errors found", "error_id": 45}]}]}]}]}})";
    const json fact = node::health::parse_dcgm_diag(out, 226);
    REQUIRE(fact["value"].size() == 3);
    CHECK(fact["value"][2] == json{{"category", "Hardware"},
                                   {"test", "memory"},
                                   {"gpu", 1},
                                   {"status", "Fail"},
                                   {"warning", "DBE errors found"}});
    CHECK(
        node::health::parse_dcgm_diag("Error: unable to connect to host engine", 255)["missing"] ==
        "dcgmi diag -r 1 --json: exit status 255, no JSON in its output");
    HealthNode node("hgx");
    json facts = node.facts();
    facts["health"]["host"]["dcgm"] = fact;
    const auto c =
        check_of(node::health::check_health(facts, HealthNode::gpu_node()), "health.dcgm.diag");
    CHECK(c.outcome == verify::Outcome::fail);
    CHECK(c.details["drain"] == "health.dcgm.diag GPU 1: drain, run dcgmi diag -r 3");
    CHECK(c.reason ==
          "GPU 1: memory (Hardware) Fail: DBE errors found; drain, run dcgmi diag -r 3");
  }

  TEST_CASE("dcgmi that is not installed is a skip with the reason") {
    const json fact = node::health::run_dcgm_diag(node::health::RunDcgm::no);
    CHECK(fact["skipped"] == "not run (--no-dcgm or offline facts)");
  }

  TEST_CASE("docs/manual/health.md lists every rule with its action") {
    std::ifstream in(std::string(ENVLOCK_SOURCE_DIR) + "/docs/manual/health.md");
    std::stringstream text;
    text << in.rdbuf();
    for (const auto& rule : node::health::health_rules()) {
      CHECK_MESSAGE(text.str().find("| `" + rule.id + "` | " + rule.meaning + " | " + rule.action +
                                    " |") != std::string::npos,
                    rule.id);
    }
    for (const auto& xid : node::health::xid_table()) {
      CHECK_MESSAGE(text.str().find("| " + std::to_string(xid.xid) + " | " + xid.meaning + " | " +
                                    node::health::to_string(xid.kind) + " | " + xid.nvidia +
                                    " |") != std::string::npos,
                    xid.xid);
    }
  }
}
