#include "../testutil.hpp"
#include "node/expectation.hpp"
#include "node/facts.hpp"
#include "node/host_check.hpp"

#include <doctest/doctest.h>

using namespace envlock;
using nlohmann::json;

namespace {

json fixture_facts() {
  node::HostSources sources;
  sources.root = test::data_path("node/root");
  sources.nvml = {"libenvlock-no-such-nvml.so.1"};
  sources.run_programs = false;
  return node::collect_host_facts(sources);
}

// The typed form of one expect.host value.
lock::HostExpectation expectation(const json& value) {
  auto host = lock::read_host_expect({{"k", value}});
  REQUIRE(host.has_value());
  return host->at("k");
}

lock::HostExpect host_expect(const json& value) {
  auto host = lock::read_host_expect(value);
  REQUIRE(host.has_value());
  return *host;
}

} // namespace

TEST_SUITE("node.host_check") {
  TEST_CASE("expectation forms") {
    CHECK(*node::matches_spec("Ubuntu 24.04", "Ubuntu 24.04"));
    CHECK_FALSE(*node::matches_spec("Ubuntu 24.04", "Ubuntu 22.04"));
    CHECK(*node::matches_spec("580.65.06", "580.*"));
    CHECK_FALSE(*node::matches_spec("575.57.08", "580.*"));
    CHECK(*node::matches_spec("6.8.0-45-generic", ">=6.8,<6.9"));
    CHECK_FALSE(*node::matches_spec("6.11.0-1", ">=6.8,<6.9"));
    CHECK(*node::matches_spec("22.05.8", "==22.05.8"));
    CHECK(*node::matches_expectation("8", expectation(json(8))));
    CHECK(*node::matches_expectation("580.82.07", expectation(json{"580.65.06", "580.82.*"})));
    const auto bad = node::matches_spec("6.8", ">=six");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message == "'>=six': 'six' is not a version");
    CHECK(node::expectation_text(expectation(json{"a", "b.*"})) == "a or b.*");
    const auto empty = lock::read_host_expect({{"driver", json::array()}});
    REQUIRE_FALSE(empty.has_value());
    CHECK(empty.error().message ==
          "expect.host.driver: must be a string, a number or a non-empty list of them");
  }

  TEST_CASE("each expectation is one check, with reasons word for word") {
    const json expect = {{"os", "Ubuntu 24.04"},
                         {"kernel", ">=6.8,<6.9"},
                         {"driver", "575.*"},
                         {"gpu.count", 8},
                         {"kernal", "6.8"}};
    const auto checks = node::check_host(fixture_facts(), host_expect(expect));
    REQUIRE(checks.size() == 5);
    // Sorted by key: driver, gpu.count, kernal, kernel, os.
    CHECK(checks[0].id == "host.driver");
    CHECK(checks[0].outcome == verify::Outcome::fail);
    CHECK(checks[0].reason == "found 580.65.06, expected 575.*");
    CHECK(checks[1].id == "host.gpu.count");
    CHECK(checks[1].reason == "missing: libenvlock-no-such-nvml.so.1 not found");
    CHECK(checks[2].reason == "unknown host fact 'kernal'; did you mean 'kernel'?");
    CHECK(checks[3].outcome == verify::Outcome::pass);
    CHECK(checks[3].found == "6.8.0-45-generic");
    CHECK(checks[4].outcome == verify::Outcome::pass);
    CHECK(checks[4].expected == "Ubuntu 24.04");
  }

  TEST_CASE("a plain text that is not the whole fact: the failure says what the fact is") {
    const auto checks = node::check_host(fixture_facts(), host_expect({{"os", "Ubuntu 22.04"}}));
    REQUIRE(checks.size() == 1);
    CHECK(checks[0].outcome == verify::Outcome::fail);
    const std::string source = checks[0].details.contains("source")
                                   ? " (" + checks[0].details["source"].get<std::string>() + ")"
                                   : "";
    CHECK(checks[0].reason == "found " + checks[0].found +
                                  ", expected Ubuntu 22.04; the fact is the whole text '" +
                                  checks[0].found + "'" + source +
                                  ", which an expected text must equal: write it as found, or as a "
                                  "glob such as 'Ubuntu*'");
  }
}
