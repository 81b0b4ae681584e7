// The diff goldens' locks were written by tests/data/diff/make_locks.py (tomllib); the C++ uv.lock
// parser must give the same package table for the same fixtures.
#include "../testutil.hpp"
#include "lock/lock.hpp"
#include "util/fs.hpp"
#include "uv/uv_lock.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE("report.uv_agreement") {
  TEST_CASE("make_locks.py and parse_uv_lock agree on the Megatron-LM fixtures") {
    for (const auto& [tag, file] :
         {std::pair<std::string, std::string>{"core_v0.18.2", "old"}, {"core_v0.19.0", "new"}}) {
      const auto uv_path = test::data_path("megatron-lm/" + tag + "/uv.lock");
      // The fixtures are part of the repository: their absence is a broken checkout, not a skip.
      REQUIRE_MESSAGE(std::filesystem::exists(uv_path), "fixture missing: " << uv_path.string());
      const auto text = util::read_file(uv_path);
      REQUIRE(text.has_value());
      const auto parsed = uv::parse_uv_lock(*text, uv_path.string());
      REQUIRE_MESSAGE(parsed.has_value(), parsed.error().message);
      const auto committed = lock::read_lock(test::data_path("diff/" + file + ".lock.json"));
      REQUIRE(committed.has_value());
      const auto& ours = committed->python.uv_lock;
      CHECK(parsed->packages == ours.packages);
      CHECK(parsed->requires_python == ours.requires_python);
      CHECK(parsed->revision == ours.revision);
    }
  }
}
