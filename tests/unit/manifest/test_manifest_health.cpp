// expect.host.health in the manifest: typed, located errors, kept in the lock.
#include "../testutil.hpp"
#include "lock/lock.hpp"
#include "manifest/manifest.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

std::string with_health(const std::string& health) {
  auto text = util::read_file(test::data_path("manifest/good_minimal.yaml"));
  REQUIRE(text.has_value());
  return *text + "expect:\n  host:\n    driver: \"580.*\"\n    health:\n" + health;
}

std::string health_error(const std::string& health) {
  const auto parsed = manifest::parse_manifest(with_health(health), "m.yaml");
  REQUIRE_FALSE(parsed.has_value());
  return parsed.error().message;
}

} // namespace

TEST_SUITE("manifest") {
  TEST_CASE("expect.host.health is read typed and written into the lock's expect.host") {
    const auto parsed = manifest::parse_manifest(
        with_health("      pcie_gen: 5\n      pcie_width: 16\n      nvlink_links: 18\n"
                    "      ib_ports: 8\n      ib_rate_gbps: 400\n      ib_link_layer: InfiniBand\n"
                    "      max_temperature_c: 85\n      mig: disabled\n"
                    "      tolerated_xids: [43, 13, 31]\n      fabric_manager: true\n"
                    "      nvlsm: false\n      gpudirect_rdma: true\n"),
        "m.yaml");
    REQUIRE_MESSAGE(parsed.has_value(), parsed.error().message);
    REQUIRE(parsed->expect.health.has_value());
    const lock::HealthExpect& h = *parsed->expect.health;
    CHECK(h.pcie_gen == 5);
    CHECK(h.nvlink_links == 18);
    CHECK(h.mig == lock::MigExpect::disabled);
    CHECK(h.tolerated_xids == std::vector<std::int64_t>{13, 31, 43});
    CHECK(h.nvlsm == false);
    CHECK(lock::host_expect_to_json(parsed->expect.host) == nlohmann::json{{"driver", "580.*"}});
    CHECK(lock::health_expect_to_json(h) == nlohmann::json{{"pcie_gen", 5},
                                                           {"pcie_width", 16},
                                                           {"nvlink_links", 18},
                                                           {"ib_ports", 8},
                                                           {"ib_rate_gbps", 400},
                                                           {"ib_link_layer", "InfiniBand"},
                                                           {"max_temperature_c", 85},
                                                           {"mig", "disabled"},
                                                           {"tolerated_xids", {13, 31, 43}},
                                                           {"fabric_manager", true},
                                                           {"nvlsm", false},
                                                           {"gpudirect_rdma", true}});
  }

  TEST_CASE("an empty expect.host.health takes every default, and is kept") {
    const auto parsed = manifest::parse_manifest(with_health("      {}\n"), "m.yaml");
    REQUIRE_MESSAGE(parsed.has_value(), parsed.error().message);
    CHECK(parsed->expect.health == lock::HealthExpect{});
  }

  TEST_CASE("expect.host.health errors name the line, the column and what is accepted") {
    CHECK(health_error("      pcie_wdth: 16\n") ==
          "m.yaml:18:7: unknown key 'pcie_wdth' in 'expect.host.health'; did you mean "
          "'pcie_width'?\n"
          "      pcie_wdth: 16\n"
          "      ^");
    CHECK(health_error("      mig: off\n") ==
          "m.yaml:18:12: 'expect.host.health.mig' must be one of disabled, enabled, any, got "
          "'off'\n"
          "      mig: off\n"
          "           ^");
    CHECK(health_error("      pcie_gen: 0\n") ==
          "m.yaml:18:17: 'expect.host.health.pcie_gen' must be an integer >= 1, got '0'\n"
          "      pcie_gen: 0\n"
          "                ^");
    CHECK(health_error("      fabric_manager: yes\n") ==
          "m.yaml:18:23: 'expect.host.health.fabric_manager' must be true or false, got a string\n"
          "      fabric_manager: yes\n"
          "                      ^");
  }
}

TEST_SUITE("lock") {
  TEST_CASE("expect.host.health in a lock: read typed, unknown keys refused") {
    CHECK(lock::read_health_expect(nlohmann::json{{"nvlink_links", 18}, {"mig", "any"}})->mig ==
          lock::MigExpect::any);
    CHECK(lock::read_health_expect(nlohmann::json{{"ib_port", 8}}).error().message ==
          "expect.host.health: unknown key 'ib_port'; did you mean 'ib_ports'?");
    CHECK(lock::read_health_expect(nlohmann::json{{"pcie_width", "16"}}).error().message ==
          "expect.host.health.pcie_width: expected an integer >= 1");
    CHECK(lock::read_health_expect(nlohmann::json{{"tolerated_xids", {13, 0}}}).error().message ==
          "expect.host.health.tolerated_xids: 0 is not an XID number (an integer >= 1)");
    CHECK(lock::read_health_expect(nlohmann::json{{"ib_link_layer", "IB"}}).error().message ==
          "expect.host.health.ib_link_layer: 'IB' is not one of InfiniBand, Ethernet");
  }
}
