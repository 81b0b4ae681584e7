#include "../testutil.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "uv/lock_satisfies.hpp"
#include "uv/requirement.hpp"
#include "uv/specifier.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

std::string sat_data(const std::string& name) {
  auto text = util::read_file(test::data_path(name));
  REQUIRE(text.has_value());
  return *text;
}

std::string sat_replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::vector<std::string> sat_moved(const std::string& pyproject, const std::string& lock) {
  const auto result = uv::check_satisfies(pyproject, "pyproject.toml", lock, "uv.lock");
  REQUIRE(result.has_value());
  std::vector<std::string> out;
  for (const auto& m : result->moved) {
    out.push_back(m.message);
  }
  return out;
}

bool sat_holds(const std::string& version, const std::string& specifiers) {
  const auto v = uv::parse_py_version(version);
  const auto s = uv::parse_specifiers(specifiers);
  REQUIRE(v.has_value());
  REQUIRE(s.has_value());
  return uv::satisfies(*v, *s);
}

// Whole paths, not a folder joined with a name: GCC 12 warns (-Warray-bounds, falsely) about
// std::string(folder) + "name" here.
const char* const k_v19_pyproject = "megatron-lm/core_v0.19.0/pyproject.toml";
const char* const k_v19_lock = "megatron-lm/core_v0.19.0/uv.lock";
const char* const k_v18_pyproject = "megatron-lm/core_v0.18.2/pyproject.toml";
const char* const k_v18_lock = "megatron-lm/core_v0.18.2/uv.lock";

} // namespace

TEST_SUITE("uv.lock_satisfies") {

  TEST_CASE("PEP 440 specifiers, as pip and uv read them") {
    CHECK(sat_holds("3.12.3", ">=3.12"));
    CHECK_FALSE(sat_holds("3.11.9", ">=3.12"));
    CHECK(sat_holds("0.1.47", "~=0.1,!=0.1.46,!=0.1.72"));
    CHECK_FALSE(sat_holds("0.1.46", "~=0.1,!=0.1.46,!=0.1.72"));
    CHECK_FALSE(sat_holds("1.0", "~=0.1"));
    CHECK(sat_holds("3.12.1", "==3.12.*"));
    CHECK_FALSE(sat_holds("3.13.0", "==3.12.*"));
    CHECK(sat_holds("2.7.1+cu128", "==2.7.1"));
    CHECK_FALSE(sat_holds("2.7.1+cu128", "==2.7.1+cu126"));
    CHECK(sat_holds("2.6.0", ">2.5,<=2.6"));
    CHECK(uv::normal_form(*uv::parse_specifiers(" !=0.1.46, ~=0.1 ")) ==
          uv::normal_form(*uv::parse_specifiers("~=0.1,!=0.1.46")));
    const auto bad = uv::parse_specifiers("=>1.0");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message == "'=>1.0' is not a version specifier");
  }

  TEST_CASE("PEP 508 requirements: names and extras normalized, markers kept") {
    const auto r = uv::parse_requirement(
        "Megatron_Energon[AV_decode, av_decode]~=7.0 ; sys_platform != 'darwin'");
    REQUIRE(r.has_value());
    CHECK(r->name == "megatron-energon");
    CHECK(r->extras == std::vector<std::string>{"av-decode"});
    CHECK(uv::normal_form(r->specifiers) == "~=7.0");
    CHECK(r->marker == "sys_platform != 'darwin'");
    const auto url = uv::parse_requirement("pkg @ https://host.invalid/pkg-1.0.whl");
    REQUIRE(url.has_value());
    CHECK(url->url == "https://host.invalid/pkg-1.0.whl");
    const auto bad = uv::parse_requirement("[torch]");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message == "'[torch]' is not a PEP 508 requirement: no package name");
  }

  TEST_CASE("the real Megatron-LM locks satisfy their own pyproject.toml") {
    const std::vector<std::pair<const char*, const char*>> pairs = {{k_v19_pyproject, k_v19_lock},
                                                                    {k_v18_pyproject, k_v18_lock}};
    for (const auto& pair : pairs) {
      const char* pyproject = pair.first; // not a structured binding: clang 14's CAPTURE
      const char* lock = pair.second;
      CAPTURE(pyproject);
      const auto result =
          uv::check_satisfies(sat_data(pyproject), "pyproject.toml", sat_data(lock), "uv.lock");
      REQUIRE(result.has_value());
      CHECK(result->moved.empty());
      for (const auto& m : result->moved) {
        MESSAGE(m.message);
      }
    }
  }

  TEST_CASE("a pyproject.toml of one release against the other's uv.lock is refused") {
    const auto out = sat_moved(sat_data(k_v19_pyproject), sat_data(k_v18_lock));
    CHECK_FALSE(out.empty());
  }

  TEST_CASE("a dependency added, removed or changed is named with its position") {
    const std::string py = sat_data(k_v19_pyproject);
    const std::string lock = sat_data(k_v19_lock);
    CHECK(sat_moved(sat_replaced(py, "\"torch>=2.6.0\"", "\"torch>=2.7.0\""), lock) ==
          std::vector<std::string>{"pyproject.toml:28:17: [project.dependencies] requires "
                                   "'torch>=2.7.0', uv.lock recorded 'torch>=2.6.0'"});
    CHECK(sat_moved(sat_replaced(py, "\"numpy\", ", "\"numpy\", \"safetensors\", "), lock) ==
          std::vector<std::string>{"pyproject.toml:28:42: [project.dependencies] requires "
                                   "'safetensors', which uv.lock did not record"});
    CHECK(sat_moved(sat_replaced(py, "    \"wget\",\n", ""), lock) ==
          std::vector<std::string>{"pyproject.toml: [project.optional-dependencies] dev no "
                                   "longer requires 'wget', which uv.lock recorded"});
    CHECK(sat_moved(sat_replaced(py, "\"pytest==9.1.1\"", "\"pytest==9.2.0\""), lock) ==
          std::vector<std::string>{"pyproject.toml:139:5: [dependency-groups] test requires "
                                   "'pytest==9.2.0', uv.lock recorded 'pytest==9.1.1'"});
    CHECK(sat_moved(sat_replaced(py, "rev = \"v0.2.0\"", "rev = \"v0.3.0\""), lock).size() == 2);
    CHECK(sat_moved(sat_replaced(py, "\"urllib3>=2.6.3\"", "\"urllib3>=2.7\""), lock).size() == 1);
    CHECK(
        sat_moved(sat_replaced(py, "requires-python = \">=3.12\"", "requires-python = \">=3.11\""),
                  lock) == std::vector<std::string>{"pyproject.toml:26:19: requires-python is "
                                                    "'>=3.11', uv.lock recorded '>=3.12'"});
    CHECK(sat_moved(sat_replaced(py, "lts = []\n", ""), lock).size() == 1);
  }

  TEST_CASE("spelling that uv normalizes is not a change") {
    const std::string py = sat_data(k_v19_pyproject);
    const std::string lock = sat_data(k_v19_lock);
    CHECK(sat_moved(sat_replaced(py, "\"tensorstore~=0.1,!=0.1.46,!=0.1.72\"",
                                 "\"TensorStore ~= 0.1, != 0.1.72, != 0.1.46\""),
                    lock)
              .empty());
    CHECK(sat_moved(sat_replaced(py, "\"myst_parser\"", "\"Myst.Parser\""), lock).empty());
    // A set, as uv compares it: the same requirement twice is one.
    CHECK(sat_moved(sat_replaced(py, "\"numpy\", ", "\"numpy\", \"NumPy\", "), lock).empty());
  }

  TEST_CASE("a malformed pyproject.toml or requirement is an error at its position") {
    const std::string lock = sat_data(k_v19_lock);
    const auto bad = uv::check_satisfies("[project]\nname = \"x\"\ndependencies = [\"torch>>1\"]\n",
                                         "pyproject.toml", lock, "uv.lock");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message == "pyproject.toml:3:17: 'torch>>1' is not a PEP 508 requirement: "
                                 "'>>1' is not a version specifier");
    const auto other =
        uv::check_satisfies("[project]\nname = \"other\"\n", "pyproject.toml", lock, "uv.lock");
    REQUIRE(other.has_value());
    REQUIRE(other->moved.size() == 1);
    CHECK(other->moved[0].message ==
          "uv.lock: no package for the project 'other' (source \".\"); uv.lock was made for "
          "another project");
  }
}

TEST_SUITE("uv.lock_satisfies") {

  TEST_CASE("what uv.lock locks but uv sync never installs: torch kept out by an override") {
    const auto result = uv::check_satisfies(sat_data(k_v19_pyproject), "pyproject.toml",
                                            sat_data(k_v19_lock), "uv.lock");
    REQUIRE(result.has_value());
    const auto& away = result->never_installed;
    for (const char* name : {"torch", "triton"}) { // torchvision: not locked at all
      CAPTURE(name);
      CHECK(std::find(away.begin(), away.end(), name) != away.end());
    }
    // Reached from the project: installed.
    for (const char* name : {"megatron-core", "numpy", "packaging"}) {
      CAPTURE(name);
      CHECK(std::find(away.begin(), away.end(), name) == away.end());
    }
    CHECK(std::is_sorted(away.begin(), away.end()));
  }
}

TEST_SUITE("uv.lock_satisfies") {

  TEST_CASE("a specifier set's normal form parses back to itself (fuzz_requirement's law)") {
    for (const char* text :
         {"==1.0.*", "~=1.0", "===foo-bar", ">=1.0RC1", "!=2.0.post1.dev3", "<=v1", ">1!2.0",
          "==2.7.1+CU128", " >= 3.12 , < 3.14 ", "==1.0.0.*", "!=1.*", "", "<2.0a0"}) {
      CAPTURE(text);
      const auto parsed = uv::parse_specifiers(text);
      REQUIRE(parsed.has_value());
      const std::string normal = uv::normal_form(*parsed);
      const auto again = uv::parse_specifiers(normal);
      REQUIRE(again.has_value());
      CHECK(uv::normal_form(*again) == normal);
    }
  }
}

namespace {

// The files of a project folder, read as `envlock lock` reads them.
uv::ProjectFiles folder_files(const std::filesystem::path& root) {
  uv::ProjectFiles files;
  files.read = [root](const std::string& path) -> Result<std::optional<std::string>> {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(root / path, ec)) {
      return std::optional<std::string>();
    }
    auto text = util::read_file(root / path);
    if (!text) {
      return text.error();
    }
    return std::optional<std::string>(*text);
  };
  files.folders = [root](const std::string& folder) -> std::optional<std::vector<std::string>> {
    std::error_code ec;
    if (!std::filesystem::is_directory(root / folder, ec)) {
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (const auto& entry : std::filesystem::directory_iterator(root / folder, ec)) {
      if (entry.is_directory(ec)) {
        out.push_back(entry.path().filename().string());
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  return files;
}

uv::SatisfiesResult consistency(const std::string& rule, const std::string& which) {
  const auto folder = test::data_path("uv/consistency/" + rule + "/" + which);
  const auto result = uv::check_satisfies(
      sat_data("uv/consistency/" + rule + "/" + which + "/pyproject.toml"), "pyproject.toml",
      sat_data("uv/consistency/" + rule + "/" + which + "/uv.lock"), "uv.lock",
      folder_files(folder));
  REQUIRE(result.has_value());
  return *result;
}

std::vector<std::string> messages(const uv::SatisfiesResult& result) {
  std::vector<std::string> out;
  for (const auto& m : result.moved) {
    out.push_back(m.message);
  }
  return out;
}

} // namespace

TEST_SUITE("uv.lock_satisfies") {

  // One pair per rule of uv's comparison (tests/data/uv/consistency/RULE/{accept,refuse}): the
  // lock uv accepts is accepted, the one it refuses is refused, naming both sides.
  TEST_CASE("each rule of uv's comparison: the lock uv accepts passes, the one it refuses fails") {
    const std::vector<std::pair<std::string, std::vector<std::string>>> rules = {
        {"path-trailing-slash",
         {"pyproject.toml:5:17: [project.dependencies] requires 'megatron-core (directory "
          "3rdparty/Megatron-LM-next)', uv.lock recorded 'megatron-core (directory "
          "3rdparty/Megatron-LM)'"}},
        {"url-fragment-credentials",
         {"pyproject.toml:5:17: [project.dependencies] requires 'fused-ops (url "
          "https://files.example.invalid/wheels/fused_ops-1.3.0-py3-none-any.whl)', uv.lock "
          "recorded 'fused-ops (url "
          "https://files.example.invalid/wheels/fused_ops-1.2.0-py3-none-any.whl)'"}},
        {"lowered-specifier",
         {"pyproject.toml:5:42: [project.dependencies] requires 'emerging-optimizers (git "
          "https://git.example.invalid/emerging-optimizers.git@v0.3.0)', uv.lock recorded "
          "'emerging-optimizers (git "
          "https://git.example.invalid/emerging-optimizers.git@v0.2.0)'"}},
        {"overrides-constraints",
         {"pyproject.toml:9:28: [tool.uv] constraint-dependencies requires 'torch<3; "
          "sys_platform == 'linux' (index https://download.example.invalid/whl/cu128)', which "
          "uv.lock did not record",
          "pyproject.toml:9:28: [tool.uv] constraint-dependencies requires 'torch<3; "
          "sys_platform != 'linux' (index https://download.example.invalid/whl/cpu)', which "
          "uv.lock did not record",
          "pyproject.toml: [tool.uv] constraint-dependencies no longer requires 'torch<3', which "
          "uv.lock recorded"}},
        {"index-url",
         {"pyproject.toml:5:17: [project.dependencies] requires 'torch>=2.6 (index "
          "https://download.example.invalid/whl/cu126)', uv.lock recorded 'torch>=2.6 (index "
          "https://download.example.invalid/whl/cu128)'"}},
        {"requires-python-range",
         {"pyproject.toml:4:19: requires-python is '>=3.11, <4', uv.lock recorded '==3.*, "
          ">=3.12'"}},
        {"markers-simplified",
         {"pyproject.toml:5:17: [project.dependencies] requires 'nvidia-ml-py; python_version >= "
          "'3.13' and sys_platform == 'linux'', uv.lock recorded 'nvidia-ml-py; sys_platform == "
          "'linux''"}},
        {"no-project-groups",
         {"pyproject.toml:3:9: [dependency-groups] dev requires 'ruff', which uv.lock did not "
          "record"}},
        {"static-version",
         {"pyproject.toml:3:11: version is '0.121.0', uv.lock recorded '0.120.2' for 'trainer'"}},
        {"workspace-members",
         {"packages/data/pyproject.toml:5:17: [project.dependencies] requires 'numpy>=2.1', "
          "uv.lock recorded 'numpy>=2'"}},
        {"old-revision",
         {"pyproject.toml:5:17: [project.dependencies] requires 'numpy>=2.1', uv.lock recorded "
          "'numpy>=2'"}},
    };
    for (const auto& [rule_name, refusal] : rules) {
      const std::string rule = rule_name; // not a structured binding: clang 14's CAPTURE
      CAPTURE(rule);
      const auto accepted = consistency(rule, "accept");
      CHECK(messages(accepted).empty());
      for (const auto& m : accepted.moved) {
        MESSAGE(m.message);
      }
      const auto refused = consistency(rule, "refuse");
      const std::string got = util::join(messages(refused), "\n");
      CAPTURE(got);
      CHECK(messages(refused) == refusal);
    }
  }
}

TEST_SUITE("uv.lock_satisfies") {

  TEST_CASE("what envlock cannot read as uv would is named, not refused") {
    // The local package's pyproject.toml is not there: uv would build it; envlock says so.
    const auto folder = test::data_path("uv/consistency/path-trailing-slash/accept");
    const std::string py = sat_data("uv/consistency/path-trailing-slash/accept/pyproject.toml");
    const std::string lock = sat_data("uv/consistency/path-trailing-slash/accept/uv.lock");
    uv::ProjectFiles none;
    none.read = [](const std::string&) -> Result<std::optional<std::string>> {
      return std::optional<std::string>();
    };
    const auto result = uv::check_satisfies(py, "pyproject.toml", lock, "uv.lock", none);
    REQUIRE(result.has_value());
    CHECK(result->moved.empty());
    CHECK(result->notes == std::vector<std::string>{
                               "uv.lock: 'megatron-core' (directory 3rdparty/Megatron-LM) was "
                               "not checked: 3rdparty/Megatron-LM/pyproject.toml is not there"});
    // Dynamic dependencies: uv builds the package to read them.
    const auto dynamic = uv::check_satisfies(
        "[project]\nname = \"trainer\"\nversion = \"0.1.0\"\nrequires-python = \">=3.12\"\n"
        "dynamic = [\"dependencies\"]\n",
        "pyproject.toml",
        "version = 1\nrevision = 3\nrequires-python = \">=3.12\"\n\n[[package]]\nname = "
        "\"trainer\"\nversion = \"0.1.0\"\nsource = { virtual = \".\" }\n",
        "uv.lock");
    REQUIRE(dynamic.has_value());
    CHECK(dynamic->moved.empty());
    CHECK(dynamic->notes ==
          std::vector<std::string>{"pyproject.toml: the dependencies of 'trainer' are dynamic; uv "
                                   "builds it to read them, envlock did not compare them"});
  }

  TEST_CASE("a URL's credentials never reach a message") {
    const auto refused = consistency("url-fragment-credentials", "refuse");
    REQUIRE_FALSE(refused.moved.empty());
    for (const auto& m : refused.moved) {
      CHECK(m.message.find("s3cret") == std::string::npos);
      CHECK(m.message.find("sha256=") == std::string::npos);
    }
  }

  TEST_CASE("a member no longer editable, or a member added, is refused") {
    const auto folder = test::data_path("uv/consistency/workspace-members/accept");
    const std::string py = sat_data("uv/consistency/workspace-members/accept/pyproject.toml");
    const std::string lock = sat_data("uv/consistency/workspace-members/accept/uv.lock");
    const auto editable = uv::check_satisfies(
        sat_replaced(py, "trainer-kernels = { workspace = true, editable = false }",
                     "trainer-kernels = { workspace = true }"),
        "pyproject.toml", lock, "uv.lock", folder_files(folder));
    REQUIRE(editable.has_value());
    CHECK(messages(*editable) ==
          std::vector<std::string>{
              "packages/kernels/pyproject.toml: 'trainer-kernels' is a package installed "
              "editable; uv.lock recorded its source as directory",
              "pyproject.toml:5:33: [project.dependencies] requires 'trainer-kernels (editable "
              "packages/kernels)', uv.lock recorded 'trainer-kernels (directory "
              "packages/kernels)'"});
    const auto added =
        uv::check_satisfies(sat_replaced(py, "exclude = [\"packages/scratch\"]", "exclude = []"),
                            "pyproject.toml", lock, "uv.lock", folder_files(folder));
    REQUIRE(added.has_value());
    CHECK(messages(*added) ==
          std::vector<std::string>{
              "pyproject.toml: the workspace members are scratch, trainer, trainer-data, "
              "trainer-kernels; uv.lock recorded [manifest] members trainer, trainer-data, "
              "trainer-kernels",
              "packages/scratch/pyproject.toml: the workspace member 'scratch' is not in uv.lock"});
  }
}
