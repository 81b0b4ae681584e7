// The health judgement on an 8-GPU NVSwitch node (tests/data/node/health/hgx) with one fault at a
// time, each caught by its rule with its action, and nothing else failing.
#include "health_fixture.hpp"

#include <filesystem>

using namespace envlock;
using nlohmann::json;
using test::check_of;
using test::failed_ids;
using test::HealthNode;

namespace {

using Ids = std::vector<std::string>;

// The one failing check of `node`: its id is `id`, its drain line `drain`; its check returned.
verify::CheckResult
only_failure(const HealthNode& node, const std::string& id, const std::string& drain,
             const node::health::JudgeOptions& options = HealthNode::gpu_node()) {
  const auto checks = node.checks(options);
  CHECK(failed_ids(checks) == Ids{id});
  const auto& c = check_of(checks, id);
  CHECK(c.outcome == verify::Outcome::fail);
  CHECK(c.group == "health");
  CHECK(c.details.value("drain", "") == drain);
  return c;
}

json& scenario_gpu(HealthNode& node, int index) {
  return node.scenario["gpus"][index];
}

} // namespace

TEST_SUITE("node.health") {
  TEST_CASE("the healthy NVSwitch node fails nothing and skips only what it lacks") {
    const HealthNode node("hgx");
    const auto checks = node.checks();
    CHECK(failed_ids(checks) == Ids{});
    CHECK(checks.size() == node::health::health_rules().size());
    for (const auto& c : checks) {
      const bool skipped = c.id == "health.gpu.processes" || c.id == "health.fabric.nvlsm_down" ||
                           c.id == "health.ib.peermem_missing" || c.id == "health.dcgm.diag";
      CHECK_MESSAGE((c.outcome == (skipped ? verify::Outcome::skip : verify::Outcome::pass)),
                    (c.id + ": " + c.reason));
      CHECK_MESSAGE(c.reason.find("warning") == std::string::npos, (c.id + ": " + c.reason));
    }
    CHECK(check_of(checks, "health.nvlink.down").found == "18 of 18 up (GPUs 0-7)");
    CHECK(check_of(checks, "health.fabric.state").found == "completed, clique 32766 (GPUs 0-7)");
    CHECK(check_of(checks, "health.fabric.manager_down").found == "running (pid 2301)");
    CHECK(check_of(checks, "health.pcie.width").found == "x16 of x16 (GPUs 0-7)");
    CHECK(check_of(checks, "health.ib.port_down").found == "ACTIVE (mlx5_0/1, mlx5_1/1, mlx5_2/1, "
                                                           "mlx5_3/1, mlx5_4/1)");
    CHECK(check_of(checks, "health.gpu.xid").found == "no XID since boot (/dev/kmsg)");
  }

  TEST_CASE("a pending row remap: reset the GPU") {
    HealthNode node("hgx");
    scenario_gpu(node, 3)["nvmlDeviceGetRemappedRows"] = {0, 1, 1, 0};
    const auto c = only_failure(node, "health.gpu.row_remap_pending",
                                "health.gpu.row_remap_pending GPU 3: drain, reset the GPU");
    CHECK(c.reason ==
          "GPU 3: a row remap is pending (1 rows remapped for uncorrectable errors); drain, reset "
          "the GPU");
    CHECK(c.details["findings"][0] == json{{"id", "health.gpu.row_remap_pending"},
                                           {"severity", "fail"},
                                           {"subject", "GPU 3"},
                                           {"what", "a row remap is pending (1 rows remapped for "
                                                    "uncorrectable errors)"},
                                           {"action", "drain, reset the GPU"},
                                           {"source", "nvmlDeviceGetRemappedRows"}});
  }

  TEST_CASE("a row remapping failure: return for repair") {
    HealthNode node("hgx");
    scenario_gpu(node, 5)["nvmlDeviceGetRemappedRows"] = {0, 512, 0, 1};
    const auto c = only_failure(node, "health.gpu.row_remap_failure",
                                "health.gpu.row_remap_failure GPU 5: drain, return for repair");
    CHECK(c.reason == "GPU 5: a row remapping failed (512 rows remapped for uncorrectable "
                      "errors); drain, return for repair");
  }

  TEST_CASE("a volatile uncorrected ECC error: reset the GPU; an old one only warns") {
    HealthNode node("hgx");
    scenario_gpu(node, 1)["nvmlDeviceGetTotalEccErrors"]["uncorrected_volatile"] = 2;
    scenario_gpu(node, 1)["nvmlDeviceGetTotalEccErrors"]["uncorrected_aggregate"] = 2;
    const auto c = only_failure(node, "health.gpu.ecc_uncorrected",
                                "health.gpu.ecc_uncorrected GPU 1: drain, reset the GPU");
    CHECK(c.reason ==
          "GPU 1: 2 uncorrected ECC errors since the driver loaded; drain, reset the GPU");

    HealthNode old("hgx");
    scenario_gpu(old, 1)["nvmlDeviceGetTotalEccErrors"]["uncorrected_aggregate"] = 4;
    const auto checks = old.checks();
    CHECK(failed_ids(checks) == Ids{});
    CHECK(check_of(checks, "health.gpu.ecc_uncorrected").reason ==
          "warning: GPU 1: 4 uncorrected ECC errors in the GPU's lifetime; watch the GPU; return "
          "it for repair if it recurs");
  }

  TEST_CASE("XID 79 in the kernel log: reboot") {
    HealthNode node("hgx");
    node.write("/dev/kmsg", "3,2001,7201234567,-;NVRM: Xid (PCI:0000:3a:00): 79, pid='<unknown>', "
                            "name=<unknown>, GPU has fallen off the bus.\n");
    const auto c = only_failure(node, "health.gpu.xid", "health.gpu.xid GPU 2: drain, reboot");
    CHECK(c.reason == "GPU 2: XID 79 (GPU has fallen off the bus) at 7201.2 s after boot; drain, "
                      "reboot");
  }

  TEST_CASE("XID 48 in the kernel log: reset the GPU; XID 13 only warns; tolerated XIDs pass") {
    HealthNode node("hgx");
    node.write(
        "/dev/kmsg",
        "3,2001,100000000,-;NVRM: Xid (PCI:0000:ba:00): 13, pid=4242, name=python3, Graphics "
        "SM Warp Exception on (GPC 1, TPC 2, SM 0): Illegal Instruction Encoding\n"
        "3,2002,101000000,-;NVRM: Xid (PCI:0000:ba:00): 48, pid=4242, name=python3, An "
        "uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer\n"
        " SUBSYSTEM=pci\n"
        "3,2003,101000001,-;NVRM: Xid (PCI:0000:ba:00): 48, pid=4242, name=python3, An "
        "uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer\n");
    const auto c =
        only_failure(node, "health.gpu.xid", "health.gpu.xid GPU 6: drain, reset the GPU");
    CHECK(c.reason ==
          "GPU 6: XID 48 (Double bit ECC error) at 101.0 s after boot, 2 times; drain, "
          "reset the GPU; warning: GPU 6: XID 13 (Graphics engine exception) at 100.0 s "
          "after boot; none for the node (the application failed)");
    auto tolerant = HealthNode::gpu_node();
    tolerant.expect.tolerated_xids = std::vector<std::int64_t>{13, 48};
    const auto checks = node.checks(tolerant);
    CHECK(failed_ids(checks) == Ids{});
    CHECK(check_of(checks, "health.gpu.xid").found ==
          "XID 13 tolerated (GPU 6); XID 48 tolerated (GPU 6)");
  }

  TEST_CASE("a hardware slowdown in two readings: check the cooling and the power") {
    HealthNode node("hgx");
    scenario_gpu(node, 4)["nvmlDeviceGetCurrentClocksEventReasons"] = {8, 8};
    const auto c =
        only_failure(node, "health.gpu.hw_slowdown",
                     "health.gpu.hw_slowdown GPU 4: drain, check the cooling and the power supply");
    CHECK(c.reason == "GPU 4: HW slowdown is active (clock event reasons 0x8: hw_slowdown); drain, "
                      "check the cooling and the power supply");
    HealthNode passing("hgx");
    scenario_gpu(passing, 4)["nvmlDeviceGetCurrentClocksEventReasons"] = {8, 1};
    CHECK(failed_ids(passing.checks()) == Ids{});
  }

  TEST_CASE("a PCIe link at x8 of x16: reseat the GPU") {
    HealthNode node("hgx");
    scenario_gpu(node, 7)["nvmlDeviceGetCurrPcieLinkWidth"] = 8;
    const auto c =
        only_failure(node, "health.pcie.width", "health.pcie.width GPU 7: drain, reseat the GPU");
    CHECK(c.reason == "GPU 7: x8 of x16; drain, reseat the GPU");
    CHECK(c.found == "x16 of x16 (GPUs 0-6)");
  }

  TEST_CASE("one NVLink down: reset the GPU") {
    HealthNode node("hgx");
    scenario_gpu(node, 0)["nvmlDeviceGetNvLinkState"][5] = 0;
    const auto c =
        only_failure(node, "health.nvlink.down", "health.nvlink.down GPU 0: drain, reset the GPU");
    CHECK(c.reason == "GPU 0: link 5 down (17 of 18 up); drain, reset the GPU");
    auto expect_18 = HealthNode::gpu_node();
    expect_18.expect.nvlink_links = 18;
    const auto counted = check_of(node.checks(expect_18), "health.nvlink.down");
    CHECK(counted.reason == "GPU 0: 17 links up, 18 expected (down: 5); drain, reset the GPU");
  }

  TEST_CASE("a fabric registration not completed: restart Fabric Manager") {
    HealthNode node("hgx");
    scenario_gpu(node, 2)["nvmlDeviceGetGpuFabricInfoV"]["state"] = 2;
    const auto c = only_failure(node, "health.fabric.state",
                                "health.fabric.state GPU 2: drain, restart Fabric Manager");
    CHECK(c.reason == "GPU 2: fabric registration in progress; drain, restart Fabric Manager");
  }

  TEST_CASE("Fabric Manager not running on an NVSwitch node: start it") {
    HealthNode node("hgx");
    std::filesystem::remove_all(node.root / "proc/2301");
    const auto c = only_failure(node, "health.fabric.manager_down",
                                "health.fabric.manager_down: drain, start Fabric Manager");
    CHECK(c.reason ==
          "no process of root runs the installed nv-fabricmanager; drain, start Fabric Manager");
  }

  TEST_CASE("a service is root's process of the installed binary, never a name") {
    const std::string expected =
        "no process of root runs the installed nv-fabricmanager; drain, start Fabric Manager";
    SUBCASE("a user's process of that name and that executable") {
      HealthNode node("hgx");
      node.write("/proc/2301/status", "Name:\tnv-fabricmanage\nUid:\t1000\t1000\t1000\t1000\n");
      CHECK(only_failure(node, "health.fabric.manager_down",
                         "health.fabric.manager_down: drain, start Fabric Manager")
                .reason == expected);
    }
    SUBCASE("root running a copy elsewhere") {
      HealthNode node("hgx");
      node.write("/tmp/nv-fabricmanager", "a copy\n");
      std::filesystem::remove(node.root / "proc/2301/exe");
      std::filesystem::create_symlink("../../tmp/nv-fabricmanager", node.root / "proc/2301/exe");
      CHECK(only_failure(node, "health.fabric.manager_down",
                         "health.fabric.manager_down: drain, start Fabric Manager")
                .reason == expected);
    }
    SUBCASE("an installed binary others can write is not installed") {
      HealthNode node("hgx");
      std::filesystem::permissions(node.root / "usr/bin/nv-fabricmanager",
                                   std::filesystem::perms::others_write,
                                   std::filesystem::perm_options::add);
      CHECK(only_failure(node, "health.fabric.manager_down",
                         "health.fabric.manager_down: drain, start Fabric Manager")
                .reason == "no nv-fabricmanager installed (a root-owned binary in a system "
                           "folder); drain, start Fabric Manager");
    }
  }

  TEST_CASE("MIG enabled where the lock wants it off (the default)") {
    HealthNode node("hgx");
    scenario_gpu(node, 1)["nvmlDeviceGetMigMode"] = {1, 1};
    const auto c = only_failure(node, "health.gpu.mig",
                                "health.gpu.mig GPU 1: drain, set the MIG mode and reset the GPU");
    CHECK(c.reason == "GPU 1: MIG is enabled; drain, set the MIG mode and reset the GPU");
    auto any = HealthNode::gpu_node();
    any.expect.mig = lock::MigExpect::any;
    CHECK(check_of(node.checks(any), "health.gpu.mig").outcome == verify::Outcome::skip);
  }

  TEST_CASE("a stray process on a GPU of an idle node: end it") {
    HealthNode node("hgx");
    scenario_gpu(node, 3)["nvmlDeviceGetComputeRunningProcesses_v3"] = {
        {{"pid", 4242}, {"used_mib", 81920}}};
    node.write("/proc/4242/comm", "python3\n");
    auto idle = HealthNode::gpu_node();
    idle.idle = node::health::Idle::expected;
    const auto c = only_failure(node, "health.gpu.processes",
                                "health.gpu.processes GPU 3: drain, end the processes", idle);
    CHECK(c.reason == "GPU 3: 1 process: 4242 python3 (81920 MiB); drain, end the processes");
    const auto busy = check_of(node.checks(), "health.gpu.processes");
    CHECK(busy.outcome == verify::Outcome::skip);
    CHECK(busy.reason == "not judged: the node may be running jobs (no --idle)");
  }

  TEST_CASE("--idle: the check's own processes by owner and ancestry, never by name") {
    HealthNode node("hgx");
    scenario_gpu(node, 0)["nvmlDeviceGetComputeRunningProcesses_v3"] = {
        {{"pid", 4242}, {"used_mib", 64}}};
    node.write("/proc/4242/comm", "envlock-verify\n");
    node.write("/proc/4242/stat", "4242 (a) b) c) S 4000 4242 4242 0 -1 0\n");
    node.write("/proc/4000/stat", "4000 (timeout) S 1 4000 4000 0 -1 0\n");
    auto idle = HealthNode::gpu_node();
    idle.idle = node::health::Idle::expected;
    idle.own_pids = {4000};
    const std::string drain = "health.gpu.processes GPU 0: drain, end the processes";
    SUBCASE("a user's process named envlock-verify below the own PID is stray") {
      node.write("/proc/4242/status", "Uid:\t1000\t1000\t1000\t1000\n");
      CHECK(only_failure(node, "health.gpu.processes", drain, idle).reason ==
            "GPU 0: 1 process: 4242 envlock-verify (64 MiB); drain, end the processes");
    }
    SUBCASE("root's process below the own PID is the check's own") {
      node.write("/proc/4242/status", "Uid:\t0\t0\t0\t0\n");
      CHECK(check_of(node.checks(idle), "health.gpu.processes").outcome == verify::Outcome::pass);
      idle.own_pids = {3999};
      CHECK(only_failure(node, "health.gpu.processes", drain, idle).reason ==
            "GPU 0: 1 process: 4242 envlock-verify (64 MiB); drain, end the processes");
    }
    SUBCASE("a name that is not UTF-8, with control characters") {
      node.write("/proc/4242/status", "Uid:\t1000\t1000\t1000\t1000\n");
      node.write("/proc/4242/comm", "a\xff\x1b[2Jb\n");
      const json facts = node.facts();
      CHECK(facts.dump().find("a\\\\xff\\\\x1b[2Jb") != std::string::npos);
      CHECK(only_failure(node, "health.gpu.processes", drain, idle).reason ==
            "GPU 0: 1 process: 4242 a\\xff\\x1b[2Jb (64 MiB); drain, end the processes");
    }
  }

  TEST_CASE("NVML answering nonsense fails the rule, whatever the lock expects") {
    SUBCASE("100,000 GPUs") {
      HealthNode node("hgx");
      node.scenario["count"] = 100000;
      const auto checks = node.checks(node::health::JudgeOptions{});
      CHECK(failed_ids(checks) == Ids{"health.gpu.nvml"});
      CHECK(check_of(checks, "health.gpu.nvml").reason ==
            "nvmlDeviceGetCount_v2: NVML reports 100000 GPUs, more than the 64 a node can hold; "
            "drain");
    }
    SUBCASE("a name without its end") {
      HealthNode node("hgx");
      scenario_gpu(node, 1)["nvmlDeviceGetName"] = {{"hex", "ff41"}, {"unterminated", true}};
      const json facts = node.facts();
      CHECK(facts["gpus"][1]["name"] == "\\xffA" + std::string(94, 'A'));
    }
  }

  TEST_CASE("an InfiniBand port down: reseat the cable") {
    HealthNode node("hgx");
    node.write("/sys/class/infiniband/mlx5_2/ports/1/state", "1: DOWN\n");
    node.write("/sys/class/infiniband/mlx5_2/ports/1/phys_state", "3: Disabled\n");
    auto four = HealthNode::gpu_node();
    four.expect.ib_ports = 4;
    four.expect.ib_link_layer = "InfiniBand";
    const auto c = only_failure(node, "health.ib.port_down",
                                "health.ib.port_down mlx5_2/1: drain, reseat the cable", four);
    CHECK(c.reason == "mlx5_2/1: state DOWN, Disabled (3 of 4 expected active); drain, reseat the "
                      "cable");
    // Without an expectation, a port that is down may be one nobody cabled: a warning.
    const auto warned = check_of(node.checks(), "health.ib.port_down");
    CHECK(warned.outcome == verify::Outcome::pass);
    CHECK(warned.reason == "warning: mlx5_2/1: state DOWN, Disabled; check whether the port should "
                           "be cabled");
  }

  TEST_CASE("an IB port below the expected rate") {
    HealthNode node("hgx");
    node.write("/sys/class/infiniband/mlx5_1/ports/1/rate", "200 Gb/sec (4X HDR)\n");
    auto rate = HealthNode::gpu_node();
    rate.expect.ib_rate_gbps = 400;
    rate.expect.ib_link_layer = "InfiniBand";
    const auto c = only_failure(node, "health.ib.rate",
                                "health.ib.rate mlx5_1/1: drain, reseat the cable", rate);
    CHECK(c.reason == "mlx5_1/1: 200 Gb/sec (4X HDR); drain, reseat the cable");
  }

  TEST_CASE("an NVML that fails mid-way leaves values missing, never passing") {
    // Each GPU fails from its own nvmlDeviceGetRemappedRows on (the GPUs are read side by side,
    // each in its own call order): what came before is read on every GPU, nothing after.
    HealthNode node("hgx");
    node.scenario["fail_from"] = {{"call", "nvmlDeviceGetRemappedRows"}, {"rc", 999}};
    const json facts = node.facts();
    const json missing_rows = {
        {"value", nullptr},
        {"source", "nvmlDeviceGetRemappedRows"},
        {"missing", "nvmlDeviceGetRemappedRows: NVML error 999 (Unknown Error)"}};
    std::string reason;
    for (std::size_t i = 0; i < 8; ++i) {
      const json& g = facts["health"]["gpus"][i];
      CHECK(facts["gpus"][i]["health"] == "ok");          // the GPU list: read before NVML failed
      CHECK(g["ecc.mode.current"]["value"] == "enabled"); // read before NVML failed
      CHECK(g["remapped_rows.pending"] == missing_rows);
      reason += (i == 0 ? "" : "; ") + std::string("GPU ") + std::to_string(i) +
                ": cannot be read: nvmlDeviceGetRemappedRows: NVML error 999 (Unknown Error); "
                "drain";
    }
    const auto checks = node::health::check_health(facts, HealthNode::gpu_node());
    const auto& pending = check_of(checks, "health.gpu.row_remap_pending");
    CHECK(pending.outcome == verify::Outcome::fail);
    CHECK(pending.details["drain"] == "health.gpu.row_remap_pending GPU 0: drain");
    CHECK(pending.reason == reason);
    for (const char* id :
         {"health.gpu.row_remap_failure", "health.gpu.hw_slowdown", "health.gpu.temperature",
          "health.nvlink.down", "health.fabric.state", "health.gpu.mig", "health.gpu.inforom"}) {
      CHECK_MESSAGE(check_of(checks, id).outcome == verify::Outcome::fail, std::string(id));
    }
    // ECC was read on every GPU before the failure; the PCIe width comes from sysfs, found
    // through the bus id NVML gave before it failed.
    CHECK(check_of(checks, "health.gpu.ecc_disabled").found == "enabled (GPUs 0-7)");
    CHECK(check_of(checks, "health.gpu.ecc_disabled").outcome == verify::Outcome::pass);
    CHECK(check_of(checks, "health.pcie.width").found == "x16 of x16 (GPUs 0-7)");
  }

  TEST_CASE("a GPU that has fallen off the bus: reboot") {
    HealthNode node("hgx");
    for (auto& [call, answer] : scenario_gpu(node, 6).items()) {
      if (call != "nvmlDeviceGetName" && call != "nvmlDeviceGetUUID" &&
          call != "nvmlDeviceGetVbiosVersion") {
        answer = {{"rc", 15}};
      }
    }
    const auto checks = node.checks();
    const auto& lost = check_of(checks, "health.gpu.lost");
    CHECK(lost.outcome == verify::Outcome::fail);
    CHECK(lost.details["drain"] == "health.gpu.lost GPU 6: drain, reboot");
    CHECK(checks.front().id == "health.gpu.nvml");
    CHECK(failed_ids(checks).at(0) == "health.gpu.lost"); // the first failure names the drain
  }

  TEST_CASE("no NVML where the lock expects GPUs fails; where it does not, GPU rules skip") {
    HealthNode node("hgx");
    node.scenario["init"] = 9; // NVML_ERROR_DRIVER_NOT_LOADED
    const json facts = node.facts();
    const auto expecting = node::health::check_health(facts, HealthNode::gpu_node());
    const auto& nvml = check_of(expecting, "health.gpu.nvml");
    CHECK(nvml.outcome == verify::Outcome::fail);
    CHECK(nvml.reason == std::string("nvmlInit_v2: NVML error 9 (Driver Not Loaded); drain"));
    CHECK(failed_ids(expecting) == Ids{"health.gpu.nvml"});
    const auto cpu_only = node::health::check_health(facts, node::health::JudgeOptions{});
    CHECK(failed_ids(cpu_only) == Ids{});
    CHECK(check_of(cpu_only, "health.gpu.nvml").reason ==
          "no GPU to judge: nvmlInit_v2: NVML error 9 (Driver Not Loaded) (the lock expects none)");
  }

  TEST_CASE("a kernel log that cannot be read fails the XID rule") {
    HealthNode node("hgx");
    std::filesystem::remove(node.root / "dev/kmsg");
    const auto c = only_failure(node, "health.gpu.xid", "health.gpu.xid: drain");
    CHECK(c.reason ==
          "cannot be read: /dev/kmsg: not found; dmesg: not run (offline facts); drain");
  }

  TEST_CASE("a kernel log closed to a reader who is not root skips the XID rule, with the reason") {
    HealthNode node("hgx");
    json facts = node.facts();
    facts["health"]["host"]["xids"] = {{"value", nullptr},
                                       {"source", "/dev/kmsg"},
                                       {"missing", "/dev/kmsg: Operation not permitted; dmesg: "
                                                   "exit status 1"},
                                       {"denied", true}};
    const auto checks = node::health::check_health(facts, HealthNode::gpu_node());
    CHECK(failed_ids(checks) == Ids{});
    const auto xid = check_of(checks, "health.gpu.xid");
    CHECK(xid.outcome == verify::Outcome::skip);
    CHECK(xid.reason == "the kernel log cannot be read without root: /dev/kmsg: Operation not "
                        "permitted; dmesg: exit status 1");
  }
}
