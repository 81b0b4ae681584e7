// The resume check's orchestration without a GPU: option and lock errors word for word (before
// any check runs), and the "no PyTorch" path from the real trainer script, which is a failed
// check beside every other check of the run, never an error that loses them.
#include "../testutil.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/process.hpp"
#include "verify/report/report.hpp"
#include "verify/run.hpp"

#include <algorithm>

#include <doctest/doctest.h>
#include <sys/stat.h>

using namespace envlock;
using namespace envlock::verify;

TEST_SUITE_BEGIN("verify");

namespace {

// A copy of tests/data/verify/lock.json with expect.resume replaced.
std::filesystem::path lock_with_resume(const util::TempDir& dir, const nlohmann::json& resume) {
  auto lock = util::read_json_file(test::data_path("verify/lock.json"));
  REQUIRE(lock);
  (*lock)["expect"]["resume"] = resume;
  const auto path = dir.path() / "lock.json";
  REQUIRE(util::write_json_file(path, *lock));
  return path;
}

VerifyOptions resume_options(const std::filesystem::path& lock) {
  VerifyOptions options;
  options.lock_path = lock;
  options.checks = {"resume"};
  return options;
}

} // namespace

TEST_CASE("resume check: option and lock errors are input errors, word for word") {
  const util::TempDir dir = test::temp_dir();
  auto options = resume_options(lock_with_resume(dir, nlohmann::json::object()));
  options.resume.gpus = 0;
  CHECK(run_verification(options).error().message == "--gpus: must be at least 1");

  options = resume_options(lock_with_resume(dir, nlohmann::json::object()));
  options.resume.data = dir.path() / "missing";
  const auto missing = run_verification(options);
  CHECK(missing.error().code == ExitCode::usage);
  CHECK(missing.error().message == "--data " + (dir.path() / "missing").string() + ": " +
                                       (dir.path() / "missing.bin").string() + " not found");

  options = resume_options(lock_with_resume(dir, {{"loss_abs", -1}}));
  CHECK(run_verification(options).error().message ==
        (dir.path() / "lock.json").string() + ": expect.resume.loss_abs: expected a number >= 0");

  options = resume_options(lock_with_resume(dir, nlohmann::json::object()));
  options.resume.python = dir.path() / "no-python";
  CHECK(run_verification(options).error().message ==
        "--python " + (dir.path() / "no-python").string() + ": no such file");

  options = resume_options(lock_with_resume(dir, nlohmann::json::object()));
  options.resume.train_cmd = "true";
  options.resume.loss_pattern = "no placeholders";
  CHECK(run_verification(options).error().message == "--loss-pattern: needs {step} and {loss}");
}

TEST_CASE("resume check: no PyTorch is a failed check beside every other, never an error") {
  const auto python = util::find_program("python3");
  REQUIRE_MESSAGE(python.has_value(), "python3 is needed (scripts/install-deps.sh installs it)");
  const util::TempDir dir = test::temp_dir();
  // Modules that fail to import hide any installed numpy and torch.
  test::write_text(dir.path() / "hidden/numpy/__init__.py",
                   "raise ImportError('hidden by the test')\n");
  test::write_text(dir.path() / "hidden/torch/__init__.py",
                   "raise ImportError('hidden by the test')\n");
  const auto wrapper = dir.path() / "python";
  test::write_text(wrapper, "#!/bin/sh\nPYTHONPATH='" + (dir.path() / "hidden").string() +
                                "' exec '" + python->string() + "' \"$@\"\n");
  REQUIRE(::chmod(wrapper.c_str(), 0755) == 0);
  auto options = resume_options(lock_with_resume(dir, nlohmann::json::object()));
  options.checks = {"cuda", "resume"};
  options.resume.python = wrapper;
  options.resume.work_dir = dir.path() / "work";
  const auto report = run_verification(options);
  REQUIRE_MESSAGE(report.has_value(), report.error().message);
  std::vector<std::string> ids;
  for (const auto& check : report->checks) {
    ids.push_back(check.id);
  }
  // The CUDA checks run before the resume check are kept, whatever they found here.
  CHECK(
      std::any_of(ids.begin(), ids.end(), [](const auto& id) { return id.starts_with("cuda."); }));
  const auto at = [&](const std::string& id) -> const CheckResult& {
    const auto it = std::find_if(report->checks.begin(), report->checks.end(),
                                 [&](const CheckResult& c) { return c.id == id; });
    REQUIRE_MESSAGE(it != report->checks.end(), id);
    return *it;
  };
  const CheckResult& compute = at("resume.compute");
  CHECK(compute.outcome == Outcome::fail);
  CHECK(compute.group == "resume");
  CHECK(compute.reason.starts_with("resume check: PyTorch and NumPy must be importable by "));
  CHECK(compute.reason.ends_with(": hidden by the test"));
  for (const char* id : {"resume.runs", "resume.loss", "resume.lr", "resume.params"}) {
    CHECK(at(id).outcome == Outcome::skip);
    CHECK(at(id).reason == "not run: resume.compute failed");
  }
  // The report is written with every check (the writer and reader agree on it).
  const auto json = report_to_json(*report);
  CHECK(json["outcome"] == "fail");
  const auto back = formats::from_json<formats::Report>(json, "report.json");
  REQUIRE_MESSAGE(back.has_value(), back.error().message);
  CHECK(back->checks.size() == report->checks.size());
  // The sample token file and the embedded trainer (or the one found beside the executable) were
  // in place before the trainer ran.
  CHECK(std::filesystem::exists(dir.path() / "work/sample_text_document.idx"));
}

TEST_SUITE_END();
