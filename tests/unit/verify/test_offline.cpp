// Offline mode (--root) against the fixture image: every probe's pass, the failures a changed
// image produces (word for word), and the golden JSON and JUnit reports.
#include "../testutil.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "verify/report/report.hpp"
#include "verify/run.hpp"
#include "verify_fixture.hpp"

#include <doctest/doctest.h>

using namespace envlock;
using namespace envlock::verify;
using test::find_check;

TEST_SUITE_BEGIN("verify");

TEST_CASE("offline: the fixture image passes every non-GPU check") {
  test::VerifyRootfs fixture;
  auto report = run_verification(fixture.offline());
  REQUIRE(report);
  CHECK(report->mode == "offline");
  CHECK(find_check(*report, "cuda.runtime").outcome == Outcome::pass);
  CHECK(find_check(*report, "cuda.runtime").found == "13.3.41");
  CHECK(find_check(*report, "cuda.runtime").details["source"] ==
        "/usr/local/cuda/version.json (cuda_cudart)");
  CHECK(find_check(*report, "cuda.driver").outcome == Outcome::skip);
  CHECK(find_check(*report, "cuda.driver").reason ==
        "offline mode (--root): the driver belongs to the node, not the image");
  const auto& nccl = find_check(*report, "nccl.version");
  CHECK(nccl.outcome == Outcome::pass);
  CHECK(nccl.found == "2.30.7");
  CHECK(nccl.details["path"] == "/usr/lib/x86_64-linux-gnu/libnccl.so.2.30.7");
  CHECK(find_check(*report, "torch.version").found == "2.13.0a0+8145d630e8");
  CHECK(find_check(*report, "torch.cuda").outcome == Outcome::pass);
  CHECK(find_check(*report, "torch.cudnn").found == "9.14.0");
  CHECK(find_check(*report, "torch.cudnn").details["source"] ==
        "file name /usr/lib/x86_64-linux-gnu/libcudnn.so.9.14.0");
  CHECK(find_check(*report, "packages.python").found == "3.12");
  CHECK(find_check(*report, "packages.installed").outcome == Outcome::pass);
  CHECK(find_check(*report, "packages.installed").found == "4 of 4 installed");
  CHECK(find_check(*report, "packages.unexpected").outcome == Outcome::pass);
  CHECK(find_check(*report, "megatron.commit").outcome == Outcome::pass);
  CHECK(find_check(*report, "megatron.commit").details["source"] ==
        "/opt/megatron-lm/.envlock-commit");
  CHECK(find_check(*report, "image.labels").outcome == Outcome::pass);
  CHECK(find_check(*report, "gpu.count").reason ==
        "offline mode (--root): GPU checks need a running node");
  CHECK(summarize(report->checks).failed == 0);
}

TEST_CASE("offline: the report matches the golden files, run facts aside") {
  test::VerifyRootfs fixture;
  auto options = fixture.offline();
  options.deep = true;
  auto report = run_verification(options);
  REQUIRE(report);
  auto json = report_to_json(*report);
  json.erase("run");
  const auto golden = util::read_json_file(test::data_path("verify/golden_offline.json"));
  REQUIRE(golden);
  CHECK(util::canonical_json(json) == util::canonical_json(*golden));
  const auto junit = util::read_file(test::data_path("verify/golden_offline.junit.xml"));
  REQUIRE(junit);
  CHECK(report_to_junit(*report) == *junit);
}

TEST_CASE("offline: a missing and an unexpected package are listed") {
  test::VerifyRootfs fixture;
  std::filesystem::remove_all(fixture.venv_site() / "six-1.17.0.dist-info");
  test::write_text(fixture.venv_site() / "extra_pkg-0.1.dist-info/METADATA",
                   "Name: Extra.Pkg\nVersion: 0.1\n");
  test::write_text(fixture.venv_site() / "numpy-2.1.0.dist-info/METADATA",
                   "Name: numpy\nVersion: 2.0.0\n");
  auto report = run_verification(fixture.offline());
  REQUIRE(report);
  const auto& installed = find_check(*report, "packages.installed");
  CHECK(installed.outcome == Outcome::fail);
  CHECK(installed.reason == "1 missing (six); 1 at another version (numpy 2.0.0, lock 2.1.0)");
  const auto& unexpected = find_check(*report, "packages.unexpected");
  CHECK(unexpected.outcome == Outcome::fail);
  CHECK(unexpected.reason == "1 not in the lock (extra-pkg 0.1)");
}

TEST_CASE("offline: locked packages the lock's uv sync does not select are not required") {
  // A dev group left out by --no-dev: locked, marked not_selected, not installed.
  test::VerifyRootfs fixture;
  auto lock = util::read_json_file(fixture.root() / "etc/envlock/lock.json");
  REQUIRE(lock);
  auto& packages = (*lock)["python"]["uv_lock"]["packages"];
  for (const char* name : {"pluggy", "pytest"}) {
    packages.push_back(
        {{"name", name},
         {"version", "1.0.0"},
         {"not_selected", true},
         {"source", {{"kind", "registry"}, {"location", "https://pypi.example.invalid/simple"}}}});
  }
  (*lock)["python"]["sync_args"] = {"--no-dev"};
  REQUIRE(util::write_json_file(fixture.dir() / "no-dev.lock.json", *lock));
  auto options = fixture.offline();
  options.lock_path = fixture.dir() / "no-dev.lock.json";
  options.checks = {"packages"};
  auto report = run_verification(options);
  REQUIRE(report);
  const auto& installed = find_check(*report, "packages.installed");
  CHECK(installed.outcome == Outcome::pass);
  CHECK(installed.found == "4 of 4 installed; 2 locked but not selected by the lock's sync_args "
                           "and platform (pluggy, pytest)");
  CHECK(installed.details["not_selected"] == nlohmann::json({"pluggy", "pytest"}));
  // Present all the same (installed by hand): allowed, not unexpected.
  test::write_text(fixture.venv_site() / "pytest-1.0.0.dist-info/METADATA",
                   "Name: pytest\nVersion: 1.0.0\n");
  report = run_verification(options);
  REQUIRE(report);
  CHECK(find_check(*report, "packages.installed").outcome == Outcome::pass);
  CHECK(find_check(*report, "packages.unexpected").outcome == Outcome::pass);
}

TEST_CASE("offline: --deep names an installed file that differs from RECORD") {
  test::VerifyRootfs fixture;
  test::write_text(fixture.venv_site() / "numpy/__init__.py", "__version__ = '2.1.1'\n");
  auto options = fixture.offline();
  options.deep = true;
  options.checks = {"packages"};
  auto report = run_verification(options);
  REQUIRE(report);
  REQUIRE(report->checks.size() == 4);
  const auto& record = find_check(*report, "packages.record");
  CHECK(record.outcome == Outcome::fail);
  CHECK(record.reason ==
        "1 files differ from RECORD: numpy-2.1.0.dist-info: numpy/__init__.py (hash differs)");
  CHECK(record.found == "12 of 13 files match");
}

TEST_CASE("offline: a lock expecting another NCCL fails naming NCCL") {
  test::VerifyRootfs fixture;
  auto lock = util::read_json_file(fixture.root() / "etc/envlock/lock.json");
  REQUIRE(lock);
  (*lock)["expect"]["nccl"] = "2.28.9";
  (*lock)["sources"]["megatron"]["commit"] = std::string(40, 'f');
  REQUIRE(util::write_json_file(fixture.dir() / "other.lock.json", *lock));
  auto options = fixture.offline();
  options.lock_path = fixture.dir() / "other.lock.json";
  options.checks = {"nccl", "megatron"};
  auto report = run_verification(options);
  REQUIRE(report);
  REQUIRE(report->checks.size() == 2);
  CHECK(report->checks[0].id == "nccl.version");
  CHECK(report->checks[0].outcome == Outcome::fail);
  CHECK(report->checks[0].reason ==
        "NCCL 2.30.7 (from /usr/lib/x86_64-linux-gnu/libnccl.so.2.30.7) "
        "differs from the lock's 2.28.9");
  CHECK(report->checks[1].reason ==
        "Megatron-LM commit 0123456789abcdef0123456789abcdef01234567 (from "
        "/opt/megatron-lm/.envlock-commit) differs from the lock's " +
            std::string(40, 'f'));
}

TEST_CASE("offline: the Megatron commit falls back to the /etc/rc label, then direct_url.json") {
  test::VerifyRootfs fixture;
  std::filesystem::remove(fixture.root() / "opt/megatron-lm/.envlock-commit");
  auto options = fixture.offline();
  options.checks = {"megatron"};
  auto report = run_verification(options);
  REQUIRE(report);
  CHECK(report->checks[0].outcome == Outcome::pass);
  CHECK(report->checks[0].details["source"] == "/etc/rc label org.opencontainers.image.revision");
  std::filesystem::remove(fixture.root() / "etc/rc");
  report = run_verification(options);
  REQUIRE(report);
  CHECK(report->checks[0].outcome == Outcome::pass);
  CHECK(report->checks[0].details["source"] ==
        "/opt/venv/lib/python3.12/site-packages/megatron_core-0.19.0.dist-info/direct_url.json");
}

TEST_SUITE_END();
