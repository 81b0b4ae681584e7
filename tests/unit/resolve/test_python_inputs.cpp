// Python inputs that contradict each other are refused when locking and by lock --check: a
// uv.lock that no longer satisfies pyproject.toml, and one whose packages contradict `expect`.
#include "resolve/drift.hpp"
#include "resolve/resolve.hpp"
#include "resolve_project.hpp"

#include <doctest/doctest.h>

namespace {

// A uv.lock for the project "b" that depends on torch (>=2.7, as `specifier` says) and locks
// torch at `torch`, which depends on nvidia-nccl-cu12 2.27.3.
std::string inputs_uv_lock(const std::string& specifier, const std::string& torch) {
  return "version = 1\nrevision = 2\nrequires-python = \">=3.12\"\n\n"
         "[[package]]\nname = \"b\"\nversion = \"1\"\nsource = { editable = \".\" }\n"
         "dependencies = [{ name = \"torch\" }]\n\n"
         "[package.metadata]\nrequires-dist = [{ name = \"torch\", specifier = \"" +
         specifier +
         "\" }]\n\n"
         "[[package]]\nname = \"nvidia-nccl-cu12\"\nversion = \"2.27.3\"\n"
         "source = { registry = \"https://python-index.invalid/simple\" }\n\n"
         "[[package]]\nname = \"torch\"\nversion = \"" +
         torch +
         "\"\nsource = { registry = \"https://python-index.invalid/simple\" }\n"
         "dependencies = [{ name = \"nvidia-nccl-cu12\" }]\n";
}

// A package (it has a [build-system]), as uv.lock's editable root says.
const char* const k_build_system =
    "\n[build-system]\nrequires = [\"setuptools\"]\nbuild-backend = \"setuptools.build_meta\"\n";

const std::string k_inputs_pyproject =
    std::string("[project]\nname = \"b\"\nrequires-python = \">=3.12\"\ndependencies = "
                "[\"torch>=2.7\"]\n") +
    k_build_system;

// The Project of the lock tests, its uv.lock and pyproject.toml replaced.
struct InputsProject : envlock::test::Project {
  InputsProject() {
    envlock::test::write_text(dir / "py/uv.lock", inputs_uv_lock(">=2.7", "2.8.0+cu128"));
    envlock::test::write_text(dir / "py/pyproject.toml", k_inputs_pyproject);
  }
  [[nodiscard]] envlock::Result<envlock::lock::Lock> lock() const {
    return envlock::resolve::resolve_lock(manifest, dir / "envlock.lock.json",
                                          envlock::test::registry_answers());
  }
};

} // namespace

TEST_SUITE("lock") {

  TEST_CASE("python inputs that agree lock") {
    InputsProject p;
    p.manifest.expect.pytorch = "2.8.0+cu128";
    p.manifest.expect.nccl = "2.27.3";
    p.manifest.expect.python = "3.12";
    const auto lock = p.lock();
    REQUIRE(lock.has_value());
    CHECK(lock->python.uv_lock.packages.size() == 3);
    p.manifest.expect.pytorch = "2.8.0"; // torch's wheel says +cu128; uv.lock may not
    CHECK(p.lock().has_value());
  }

  TEST_CASE(
      "a pyproject.toml that uv.lock no longer satisfies is refused, naming the requirement") {
    InputsProject p;
    envlock::test::write_text(p.dir / "py/pyproject.toml",
                              "[project]\nname = \"b\"\nrequires-python = \">=3.12\"\n"
                              "dependencies = [\"torch>=2.8\", \"numpy\"]\n" +
                                  std::string(k_build_system));
    const auto lock = p.lock();
    REQUIRE_FALSE(lock.has_value());
    CHECK(lock.error().code == envlock::ExitCode::usage);
    CHECK(lock.error().message ==
          "python.project: py/uv.lock no longer matches py/pyproject.toml (uv lock --check and uv "
          "sync --locked refuse it); run 'uv lock' and lock again:\n"
          "  py/pyproject.toml:4:31: [project.dependencies] requires 'numpy', which uv.lock did "
          "not record\n"
          "  py/pyproject.toml:4:17: [project.dependencies] requires 'torch>=2.8', uv.lock "
          "recorded 'torch>=2.7'");
  }

  TEST_CASE("uv.lock's packages that contradict expect are refused, naming both") {
    InputsProject p;
    p.manifest.expect.pytorch = "2.7.1+cu128";
    p.manifest.expect.nccl = "2.30.7";
    p.manifest.expect.python = "3.11";
    const auto lock = p.lock();
    REQUIRE_FALSE(lock.has_value());
    CHECK(lock.error().code == envlock::ExitCode::usage);
    CHECK(lock.error().message ==
          "expect: py/uv.lock contradicts the manifest:\n"
          "  expect.pytorch is '2.7.1+cu128'; py/uv.lock locks torch 2.8.0+cu128\n"
          "  expect.nccl is '2.30.7'; py/uv.lock locks nvidia-nccl-cu12 2.27.3\n"
          "  expect.python is '3.11'; py/uv.lock has requires-python '>=3.12', which no Python "
          "3.11 satisfies");
  }

  TEST_CASE("lock --check: the uv.lock packages that moved are named, and listed") {
    InputsProject p;
    const auto path = p.dir / "envlock.lock.json";
    const auto lock = p.lock();
    REQUIRE(lock.has_value());
    envlock::test::write_text(p.dir / "py/uv.lock", inputs_uv_lock(">=2.7", "2.9.0"));
    const auto report = envlock::resolve::find_drift_report(
        p.manifest, *lock, path, envlock::resolve::Refresh::local_only, {});
    REQUIRE(report.has_value());
    REQUIRE(report->lines.size() == 2);
    CHECK(report->lines[0].starts_with("drift: python.uv_lock.sha256: lock has "));
    CHECK(report->lines[1] ==
          "drift: python.uv_lock.packages.torch: upgraded: lock has \"2.8.0+cu128\" (registry "
          "https://python-index.invalid/simple), uv.lock has \"2.9.0\" (registry "
          "https://python-index.invalid/simple)");
    REQUIRE(report->packages.size() == 1);
    CHECK(report->packages[0].name == "torch");
    CHECK(report->packages[0].kind == "upgraded");
    CHECK(report->packages[0].in_lock.at(0).version == "2.8.0+cu128");
    CHECK(report->packages[0].in_file.at(0).version == "2.9.0");
  }

  TEST_CASE("lock --check refuses python inputs that contradict each other, as lock does") {
    InputsProject p;
    const auto path = p.dir / "envlock.lock.json";
    const auto lock = p.lock();
    REQUIRE(lock.has_value());
    envlock::test::write_text(p.dir / "py/pyproject.toml",
                              "[project]\nname = \"b\"\nrequires-python = \">=3.12\"\n"
                              "dependencies = []\n" +
                                  std::string(k_build_system));
    const auto drift = envlock::resolve::find_drift(p.manifest, *lock, path,
                                                    envlock::resolve::Refresh::local_only, {});
    REQUIRE_FALSE(drift.has_value());
    CHECK(drift.error().code == envlock::ExitCode::usage);
    CHECK(drift.error().message ==
          "python.project: py/uv.lock no longer matches py/pyproject.toml (uv lock --check and uv "
          "sync --locked refuse it); run 'uv lock' and lock again:\n"
          "  py/pyproject.toml: [project.dependencies] no longer requires 'torch>=2.7', which "
          "uv.lock recorded");
  }
}

TEST_SUITE("lock") {

  TEST_CASE("a torch uv.lock keeps out with an override does not contradict expect") {
    InputsProject p;
    std::string uv = inputs_uv_lock(">=2.7", "2.8.0+cu128");
    const std::string edge = "dependencies = [{ name = \"torch\" }]";
    uv.replace(uv.find(edge), edge.size(),
               "dependencies = [{ name = \"torch\", marker = \"sys_platform == 'never'\" }]");
    uv.insert(uv.find("[[package]]"), "[manifest]\noverrides = [{ name = \"torch\", marker = "
                                      "\"sys_platform == 'never'\" }]\n\n");
    envlock::test::write_text(p.dir / "py/uv.lock", uv);
    envlock::test::write_text(p.dir / "py/pyproject.toml",
                              k_inputs_pyproject +
                                  "\n[tool.uv]\noverride-dependencies = [\"torch; sys_platform == "
                                  "'never'\"]\n");
    p.manifest.expect.pytorch = "2.13.0a0+8145d630e8"; // the base image's own
    p.manifest.expect.nccl = "2.30.7";                 // nvidia-nccl-cu12 comes only with torch
    const auto lock = p.lock();
    CHECK(lock.has_value());
    if (!lock) {
      MESSAGE(lock.error().message);
    }
  }
}
