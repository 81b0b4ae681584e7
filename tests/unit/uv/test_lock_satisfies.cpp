#include "../testutil.hpp"
#include "util/fs.hpp"
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
