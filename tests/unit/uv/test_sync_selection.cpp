#include "../testutil.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "uv/marker.hpp"
#include "uv/sync_selection.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace envlock;

namespace {

std::string sel_data(const std::string& name) {
  auto text = util::read_file(test::data_path(name));
  REQUIRE(text.has_value());
  return *text;
}

// The names uv sync leaves out, joined by " ", for the small workspace of tests/data/uv/sync.
std::string left_out(const std::vector<std::string>& args, const std::string& python = "3.12",
                     const std::string& platform = "linux/amd64") {
  const std::string lock = sel_data("uv/sync/uv.lock");
  const auto selection =
      uv::sync_selection({lock, "uv.lock", "", "pyproject.toml"}, args, platform, python);
  REQUIRE(selection.has_value());
  std::vector<std::string> names;
  for (const auto& p : selection->not_selected) {
    names.push_back(p.name);
  }
  return util::join(names, " ");
}

bool holds(const std::string& marker) {
  const auto env = uv::linux_environment("linux/arm64", "3.12.4");
  const auto value = uv::evaluate_marker(marker, env);
  REQUIRE(value.has_value());
  return *value;
}

} // namespace

TEST_CASE("sync selection: the project, its dependencies and the default group dev") {
  // colorama only on win32, cupy only with the extra, sphinx only with the group, tomli only
  // before Python 3.11.
  CHECK(left_out({}) == "colorama cupy sphinx tomli");
  CHECK(left_out({}, "3.10") == "colorama cupy sphinx");
}

TEST_CASE("sync selection: each option of uv sync") {
  CHECK(left_out({"--no-dev"}) == "colorama cupy iniconfig packaging pluggy pytest sphinx tomli");
  CHECK(left_out({"--no-dev", "--group", "docs"}) == "colorama cupy iniconfig pluggy pytest tomli");
  CHECK(left_out({"--only-group=docs"}) ==
        "app colorama cupy idna iniconfig lib pluggy pytest requests six tomli");
  CHECK(left_out({"--only-dev"}) == "app colorama cupy idna lib requests six sphinx tomli");
  CHECK(left_out({"--no-default-groups", "--extra", "gpu"}) ==
        "colorama iniconfig packaging pluggy pytest sphinx tomli");
  CHECK(left_out({"--all-extras", "--all-groups"}) == "colorama tomli");
  CHECK(left_out({"--all-extras", "--no-extra", "gpu"}) == "colorama cupy sphinx tomli");
  CHECK(left_out({"--no-install-project", "--no-dev"}) ==
        "app colorama cupy iniconfig packaging pluggy pytest sphinx tomli");
  CHECK(left_out({"--no-install-workspace", "--no-dev"}) ==
        "app colorama cupy iniconfig lib packaging pluggy pytest sphinx tomli");
  CHECK(left_out({"--no-install-package", "requests", "--no-dev"}) ==
        "colorama cupy iniconfig packaging pluggy pytest requests sphinx tomli");
  CHECK(left_out({"--package", "lib"}) ==
        "app colorama cupy idna iniconfig packaging pluggy pytest requests sphinx tomli");
  CHECK(left_out({"--locked", "--link-mode", "copy", "--python", "3.10", "--no-dev"}) ==
        "colorama cupy iniconfig packaging pluggy pytest sphinx");
  // The extra's marker: cupy only on x86_64.
  CHECK(left_out({"--extra", "gpu"}, "3.12", "linux/arm64") == "colorama cupy sphinx tomli");
}

TEST_CASE("sync selection: arguments uv.lock cannot meet") {
  const std::string lock = sel_data("uv/sync/uv.lock");
  const uv::SyncFiles files{lock, "uv.lock", "", "pyproject.toml"};
  const auto extra = uv::sync_selection(files, {"--extra", "cuda"}, "linux/amd64", "3.12");
  REQUIRE_FALSE(extra.has_value());
  CHECK(extra.error().message ==
        "python.sync_args: --extra cuda: uv.lock locks no extra 'cuda' for 'app'");
  const auto package = uv::sync_selection(files, {"--package", "nope"}, "linux/amd64", "3.12");
  REQUIRE_FALSE(package.has_value());
  CHECK(package.error().message ==
        "python.sync_args: --package nope names no workspace member of uv.lock");
}

TEST_CASE("sync selection: Megatron-LM with --extra mlm and its default groups") {
  const std::string lock = sel_data("megatron-lm/core_v0.19.0/uv.lock");
  const std::string pyproject = sel_data("megatron-lm/core_v0.19.0/pyproject.toml");
  const auto selection = uv::sync_selection({lock, "uv.lock", pyproject, "pyproject.toml"},
                                            {"--extra", "mlm"}, "linux/amd64", "3.12");
  REQUIRE(selection.has_value());
  std::vector<std::string> names;
  for (const auto& p : selection->not_selected) {
    names.push_back(p.name);
  }
  CHECK(util::join(names, "\n") + "\n" == sel_data("uv/sync/megatron_mlm_not_selected.txt"));
  CHECK(selection->selected.size() == 176);
  // tool.uv.default-groups = ["linting", "build", "test"]: cython (build) is in, sphinx (docs)
  // out; the extra mlm brings transformers; torch is overridden away ("sys_platform == 'never'").
  const auto has = [&](const std::string& name) {
    return std::any_of(selection->selected.begin(), selection->selected.end(),
                       [&](const uv::SelectedPackage& p) { return p.name == name; });
  };
  CHECK(has("cython"));
  CHECK(has("transformers"));
  CHECK(has("megatron-core"));
  CHECK_FALSE(has("sphinx"));
  CHECK_FALSE(has("torch"));
  CHECK_FALSE(has("transformer-engine"));
}

TEST_CASE("markers: judged for a Linux image") {
  CHECK(holds("sys_platform == 'linux'"));
  CHECK_FALSE(holds("sys_platform == 'never'"));
  CHECK(holds("platform_machine == 'aarch64' and python_full_version >= '3.12.4'"));
  CHECK_FALSE(holds("python_full_version < '3.12.4'"));
  CHECK(holds("python_full_version == '3.12.*'"));
  CHECK(holds("python_version != '3.13.*' and (os_name == 'nt' or implementation_name == "
              "'cpython')"));
  CHECK(holds("'3.11' < python_version"));
  CHECK(holds("'linux' in sys_platform"));
  CHECK_FALSE(holds("extra == 'dev'"));
  const auto bad = uv::evaluate_marker("python_version >= '3.12' and (os_name == 'posix'",
                                       uv::linux_environment("linux/amd64", "3.12"));
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().message == "'python_version >= '3.12' and (os_name == 'posix'' is not a "
                               "PEP 508 marker: an unclosed parenthesis");
}
