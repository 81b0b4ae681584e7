#include "../testutil.hpp"
#include "util/fs.hpp"
#include "uv/fast_reader.hpp"
#include "uv/uv_lock.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <map>

using namespace envlock;

namespace {

std::string data(const std::string& name) {
  auto text = util::read_file(test::data_path("uv/" + name));
  REQUIRE(text.has_value());
  return *text;
}

} // namespace

TEST_SUITE("uv") {

  TEST_CASE("every source kind is read, packages sorted by name then version") {
    const auto pin = uv::parse_uv_lock(data("good_kinds.uv.lock"), "uv.lock");
    REQUIRE(pin.has_value());
    CHECK(pin->version == 1);
    CHECK(pin->revision == 2);
    CHECK(pin->requires_python == ">=3.12");
    CHECK(pin->path.empty());
    CHECK(pin->sha256.empty());
    std::vector<std::string> order;
    for (const auto& p : pin->packages) {
      order.push_back(p.name + "@" + p.version + ":" + p.source_kind);
    }
    CHECK(order == std::vector<std::string>{"alpha@1.5.0:registry", "alpha@2.0.0:registry",
                                            "direct@0.1:url", "engine@2.17.1+4329ff84:git",
                                            "local-wheel@3.0:path", "project@:editable",
                                            "vendored@0.0.1:directory",
                                            "workspace-root@0.0.0:virtual", "zeta@1.0.0:registry"});
    CHECK(pin->packages[3].source_location ==
          "https://git.example.invalid/org/engine.git?rev=4329ff84#"
          "4329ff8400000000000000000000000000000000");
    CHECK(pin->packages[5].source_location == ".");
  }

  TEST_CASE("the fast reader and toml++ agree") {
    for (const char* name : {"good_kinds.uv.lock", "good_no_revision.uv.lock"}) {
      const std::string text = data(name);
      CHECK(uv::read_fast(text).has_value());
      const auto fast = uv::parse_uv_lock(text, name);
      const auto full = uv::parse_uv_lock_toml(text, name);
      REQUIRE(fast.has_value());
      REQUIRE(full.has_value());
      CHECK(*fast == *full);
    }
  }

  TEST_CASE("a missing revision reads as 0") {
    const auto pin = uv::parse_uv_lock(data("good_no_revision.uv.lock"), "uv.lock");
    REQUIRE(pin.has_value());
    CHECK(pin->revision == 0);
    CHECK(pin->requires_python == ">=3.10");
    REQUIRE(pin->packages.size() == 1);
  }

  TEST_CASE("another schema version is refused") {
    const auto pin = uv::parse_uv_lock(data("bad_version.uv.lock"), "uv.lock");
    REQUIRE_FALSE(pin.has_value());
    CHECK(pin.error().code == ExitCode::usage);
    CHECK(pin.error().message == "uv.lock: unsupported lock version 2 (envlock reads version 1)");
  }

  TEST_CASE("TOML syntax errors name line and column") {
    const auto pin = uv::parse_uv_lock(data("bad_syntax.uv.lock"), "uv.lock");
    REQUIRE_FALSE(pin.has_value());
    CHECK(pin.error().code == ExitCode::usage);
    CHECK(pin.error().message ==
          "uv.lock:5:15: Error while parsing string: unescaped control characters other than TAB "
          "(U+0009) are explicitly prohibited");
  }

  TEST_CASE("a duplicate key is an error, from either reader") {
    const std::string text = "version = 1\n\n[[package]]\nname = \"a\"\nname = \"b\"\n";
    CHECK_FALSE(uv::read_fast(text).has_value());
    const auto pin = uv::parse_uv_lock(text, "uv.lock");
    REQUIRE_FALSE(pin.has_value());
    CHECK(
        pin.error().message ==
        "uv.lock:5:8: Error while parsing key-value pair: cannot redefine existing string 'name'");
  }

  TEST_CASE("a table header over a key is an error, from either reader") {
    for (const std::string text :
         {"version = 1\nmanifest = 2\n\n[manifest]\n",
          "version = 1\n\n[[package]]\nname = \"a\"\nextra = 1\n[package.extra]\n",
          "version = 1\n\n[options.x]\n[options]\nx = 1\n",
          "version = 1\n\n[options]\n[[options]]\n", "version = 1\n\n[[options]]\n[options]\n",
          "version = 1\n\n[options.x]\n[[options]]\n",
          "version = 1\n\n[[options.x]]\n[[options]]\n", "version = 1.5\n"}) {
      CAPTURE(text);
      CHECK_FALSE(uv::read_fast(text).has_value());
      CHECK_FALSE(uv::parse_uv_lock(text, "uv.lock").has_value());
    }
    const auto pin = uv::parse_uv_lock("version = 1\nmanifest = 2\n\n[manifest]\n", "uv.lock");
    REQUIRE_FALSE(pin.has_value());
    CHECK(pin.error().message.starts_with("uv.lock:4:"));
  }

  TEST_CASE("a value of the wrong type is an error at its line and column, never no value") {
    const std::string head = "version = 1\n\n[[package]]\nname = \"numpy\"\n";
    const std::string registry =
        "source = { registry = \"https://pypi.example.invalid/simple\" }\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {head + "version = 1.16\n" + registry,
         "uv.lock:5:11: package 'numpy': 'version' must be a string, got a float"},
        {head + "version = { major = 1 }\n" + registry,
         "uv.lock:5:11: package 'numpy': 'version' must be a string, got a table"},
        {head + "version = \"1.26.4\"\nsource = \"registry\"\n",
         "uv.lock:6:10: package 'numpy': 'source' must be a table, got a string"},
        {"version = 1\n\n[[package]]\nname = 7\n" + registry,
         "uv.lock:4:8: package: 'name' must be a string, got an integer"},
        {"version = \"1\"\n", "uv.lock:1:11: 'version' must be an integer, got a string"},
        {"version = 1\nrequires-python = 3.12\n",
         "uv.lock:2:19: 'requires-python' must be a string, got a float"},
        {"version = 1\npackage = [\"numpy\"]\n",
         "uv.lock:2:12: package #1: 'package' must be a table, got a string"}};
    for (const auto& entry : cases) {
      const std::string& text = entry.first;
      CAPTURE(text);
      CHECK_FALSE(uv::read_fast(text).has_value());
      const auto pin = uv::parse_uv_lock(text, "uv.lock");
      REQUIRE_FALSE(pin.has_value());
      CHECK(pin.error().code == ExitCode::usage);
      CHECK(pin.error().message == entry.second);
    }
  }

  TEST_CASE("a package without source is refused") {
    const auto pin = uv::parse_uv_lock(data("bad_no_source.uv.lock"), "sub/uv.lock");
    REQUIRE_FALSE(pin.has_value());
    CHECK(pin.error().message == "sub/uv.lock: package 'orphan': missing source");
  }

  TEST_CASE("TOML outside the fast subset is read by toml++") {
    const std::string text =
        "version = 1\nrevision = 3\nnote = \"\"\"\nmulti\nline\"\"\"\n"
        "ratio = 1.5\nwhen = 2025-01-01T00:00:00Z\n\n[[package]]\n"
        "name = \"x\"\nsource.registry = \"https://pypi.example.invalid/simple\"\n";
    CHECK_FALSE(uv::read_fast(text).has_value());
    const auto pin = uv::parse_uv_lock(text, "uv.lock");
    REQUIRE(pin.has_value());
    CHECK(pin->revision == 3);
    REQUIRE(pin->packages.size() == 1);
    CHECK(pin->packages[0].source_kind == "registry");
  }

  TEST_CASE("a package locked more than once keeps each entry; a root has no version") {
    const auto text = util::read_file(test::data_path("diff/multi_old.uv.lock"));
    REQUIRE(text.has_value());
    CHECK(uv::read_fast(*text).has_value());
    const auto pin = uv::parse_uv_lock(*text, "multi_old.uv.lock");
    REQUIRE(pin.has_value());
    const std::string index = "https://python-index.invalid/simple";
    CHECK(pin->packages == std::vector<lock::UvPackage>{
                               {"big", "1.12345678901234567890", "registry", index},
                               {"megatron-core", "", "editable", "."},
                               {"pillow", "12.0.0", "registry", "https://a-index.invalid/simple"},
                               {"pillow", "12.0.0", "registry", "https://b-index.invalid/simple"},
                               {"tools", "", "virtual", "tools"},
                               {"torch", "2.11.0", "registry", index},
                               {"torch", "2.9.1", "registry", index}});
    CHECK(*pin == *uv::parse_uv_lock_toml(*text, "multi_old.uv.lock"));
  }

  TEST_CASE("the Megatron-LM locks are read, identically by both readers") {
    const auto dir = test::data_path("megatron-lm");
    // The fixtures are part of the repository: their absence is a broken checkout, not a skip.
    REQUIRE_MESSAGE(std::filesystem::exists(dir / "core_v0.19.0/uv.lock"),
                    "fixtures missing: " << dir.string());
    struct Expected {
      const char* tag;
      std::size_t packages;
      int git;
    };
    for (const auto& expected :
         {Expected{"core_v0.18.2", 284, 5}, Expected{"core_v0.19.0", 287, 6}}) {
      const char* tag = expected.tag;
      const std::size_t count = expected.packages;
      const int git = expected.git;
      CAPTURE(tag);
      const auto text = util::read_file(dir / tag / "uv.lock");
      REQUIRE(text.has_value());
      CHECK(uv::read_fast(*text).has_value());
      const auto pin = uv::parse_uv_lock(*text, "uv.lock");
      REQUIRE(pin.has_value());
      CHECK(pin->version == 1);
      CHECK(pin->revision == 2);
      CHECK(pin->requires_python == ">=3.12");
      CHECK(pin->packages.size() == count);
      std::map<std::string, int> kinds;
      for (const auto& p : pin->packages) {
        ++kinds[p.source_kind];
      }
      CHECK(kinds["editable"] == 1);
      CHECK(kinds["git"] == git);
      CHECK(kinds["registry"] == static_cast<int>(count) - git - 1);
      const auto core = std::find_if(pin->packages.begin(), pin->packages.end(),
                                     [](const auto& p) { return p.name == "megatron-core"; });
      REQUIRE(core != pin->packages.end());
      CHECK(core->source_kind == "editable");
      CHECK(core->source_location == ".");
      const auto full = uv::parse_uv_lock_toml(*text, "uv.lock");
      REQUIRE(full.has_value());
      CHECK(*pin == *full);
    }
  }

} // TEST_SUITE
