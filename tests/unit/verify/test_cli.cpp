// The verifier's orchestration and command line: option errors word for word, check groups,
// the no-driver path, the host GPU comparison and the terminal table.
#include "../testutil.hpp"
#include "formats/node_facts.hpp"
#include "lock/lock.hpp"
#include "verify/gpu/device.hpp"
#include "verify/probes/probes.hpp"
#include "verify/report/report.hpp"
#include "verify/run.hpp"
#include "verify/run_context.hpp"
#include "verify_fixture.hpp"

#include <dlfcn.h>
#include <doctest/doctest.h>

using namespace envlock;
using namespace envlock::verify;

TEST_SUITE_BEGIN("verify");

namespace {

VerifyOptions live_options() {
  VerifyOptions options;
  options.lock_path = test::data_path("verify/lock.json");
  return options;
}

bool have_driver() {
  void* handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle != nullptr) {
    ::dlclose(handle);
  }
  return handle != nullptr;
}

} // namespace

TEST_CASE("option errors are input errors, word for word") {
  auto options = live_options();
  options.checks = {"nccll"};
  auto report = run_verification(options);
  REQUIRE_FALSE(report);
  CHECK(report.error().code == ExitCode::usage);
  CHECK(report.error().message ==
        "--check: unknown check group 'nccll'; did you mean 'nccl'? (accepted: gpu, cuda, nccl, "
        "torch, packages, megatron, image, smoke, gemm, links, allreduce, sdc, resume, "
        "checkpoint-load)");
  CHECK(parse_devices("0, 1")->size() == 2);
  CHECK(parse_devices("0,-1").error().message == "--devices: '-1' is not a GPU index");
  options = live_options();
  options.lock_path = "/nonexistent/lock.json";
  report = run_verification(options);
  REQUIRE_FALSE(report);
  CHECK(report.error().message == "/nonexistent/lock.json: No such file or directory");
}

TEST_CASE("each check carries its --check group") {
  DeviceInfo device;
  device.ordinal = 3;
  const auto three = new_device_checks(device);
  REQUIRE(three.size() == 3);
  CHECK(three[0].id == "gpu.3.smoke");
  CHECK(three[0].group == "smoke");
  CHECK(three[1].id == "gpu.3.bandwidth");
  CHECK(three[1].group == "smoke");
  device.ordinal = 0;
  CHECK(new_device_checks(device)[2].id == "gpu.0.gemm_bf16");
  CHECK(new_device_checks(device)[2].group == "gemm");
  // The run stamps each probe's group; the GPU checks bring their own.
  auto options = live_options();
  options.checks = {"gpu", "nccl", "packages", "links", "allreduce"};
  options.no_gpu = true;
  const auto report = run_verification(options);
  REQUIRE(report);
  CHECK(test::find_check(*report, "gpu.count").group == "gpu");
  CHECK(test::find_check(*report, "links.peer").group == "links");
  CHECK(test::find_check(*report, "links.device_to_host").group == "links");
  CHECK(test::find_check(*report, "gpu.visible").group == "gpu");
  CHECK(test::find_check(*report, "nccl.busbw").group == "allreduce");
  CHECK(test::find_check(*report, "nccl.version").group == "nccl");
  CHECK(test::find_check(*report, "packages.installed").group == "packages");
}

TEST_CASE("no driver: GPU checks fail with the reason, --no-gpu skips them") {
  if (have_driver()) {
    MESSAGE("libcuda.so.1 is present; the no-driver path is not tested here");
    return;
  }
  auto options = live_options();
  options.checks = {"gpu", "cuda"};
  auto report = run_verification(options);
  REQUIRE(report);
  for (const char* id : {"gpu.count", "gpu.model", "cuda.driver", "cuda.compat"}) {
    const auto& check = test::find_check(*report, id);
    CHECK(check.outcome == Outcome::fail);
    CHECK(check.reason == "no NVIDIA driver: libcuda.so.1 not found");
  }
  options.no_gpu = true;
  report = run_verification(options);
  REQUIRE(report);
  for (const char* id : {"gpu.count", "gpu.model", "gpu.visible", "cuda.driver", "cuda.compat"}) {
    const auto& check = test::find_check(*report, id);
    CHECK(check.outcome == Outcome::skip);
    CHECK(check.reason == "GPU checks skipped (--no-gpu)");
  }
}

TEST_CASE("the GPUs seen are compared with the host's list") {
  util::TempDir dir = test::temp_dir();
  const auto lock = lock::read_lock(test::data_path("verify/lock.json"));
  REQUIRE(lock);
  CheckResult count;
  count.id = "gpu.count";
  count.details["uuids"] = {"GPU-b", "GPU-a"};
  VerifyOptions options;
  options.host_facts = dir.path() / "host.json";
  // The host's facts as `envlock node` writes them (formats/node_facts.hpp).
  formats::NodeFacts host;
  host.gpus = {{0, true, "NVIDIA H200", "GPU-a", "97.00", "ok"},
               {1, true, "NVIDIA H200", "GPU-b", "97.00", "ok"}};
  REQUIRE(formats::write_node_facts(options.host_facts, host));
  const auto made = RunContext::create(*lock, options);
  REQUIRE(made);
  const RunContext& context = *made;
  auto check = compare_host_gpus(context, {count});
  CHECK(check.outcome == Outcome::pass);
  CHECK(check.expected == "GPU-a,GPU-b");
  count.details["uuids"] = {"GPU-a"};
  check = compare_host_gpus(context, {count});
  CHECK(check.outcome == Outcome::fail);
  CHECK(check.reason == "the GPUs seen here differ from the host's list");
  host.gpus = {{0, true, "NVIDIA H200", std::nullopt, "97.00", "uuid: NVML_ERROR_UNKNOWN (999)"}};
  REQUIRE(formats::write_node_facts(options.host_facts, host));
  check = compare_host_gpus(context, {count});
  CHECK(check.outcome == Outcome::fail);
  CHECK(check.reason == options.host_facts.string() + ": gpus[0].uuid: missing");
}

TEST_CASE("the terminal table") {
  Report report;
  CheckResult one;
  one.id = "nccl.version";
  one.outcome = Outcome::fail;
  one.expected = "2.30.7";
  one.found = "2.28.9";
  one.reason = "NCCL differs";
  CheckResult two;
  two.id = "gpu.count";
  two.outcome = Outcome::skip;
  two.reason = "GPU checks skipped (--no-gpu)";
  report.checks = {one, two};
  CHECK(report_to_table(report, Colour::off) ==
        "      check         expected  found   reason\n"
        "FAIL  nccl.version  2.30.7    2.28.9  NCCL differs\n"
        "SKIP  gpu.count                       GPU checks skipped (--no-gpu)\n"
        "0 passed, 1 failed, 1 skipped\n");
  CHECK(report_to_table(report, Colour::on).find("\033[31mFAIL\033[0m") != std::string::npos);
}

TEST_SUITE_END();
