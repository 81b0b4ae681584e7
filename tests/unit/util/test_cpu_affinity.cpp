// CPU lists as sysfs writes them, and placing a thread on CPUs (on a thread of the test's own, so
// the test runner's placement is left as it was).
#include "util/cpu_affinity.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <optional>
#include <thread>

namespace envlock::util {

TEST_SUITE("cpu_affinity") {
  TEST_CASE("a CPU list reads as sysfs writes it") {
    CHECK(*parse_cpu_list("0-3,8,10-11\n") == std::vector<int>{0, 1, 2, 3, 8, 10, 11});
    CHECK(*parse_cpu_list("5") == std::vector<int>{5});
    CHECK(*parse_cpu_list("3,1-2,2") == std::vector<int>{1, 2, 3});
    CHECK(parse_cpu_list("\n")->empty());
    CHECK(parse_cpu_list("0-x").error().message == "'0-x': not a CPU list");
    CHECK(parse_cpu_list("3-1").error().message == "'3-1': not a CPU list");
    CHECK(parse_cpu_list("1,,2").error().message == "'1,,2': not a CPU list");
    CHECK(parse_cpu_list("-1").error().message == "'-1': not a CPU list");
    CHECK(parse_cpu_list("99999").error().message == "'99999': not a CPU list");
  }

  TEST_CASE("a CPU list is written back in ranges") {
    CHECK(cpu_list_text({0, 1, 2, 3, 8, 10, 11}) == "0-3,8,10-11");
    CHECK(cpu_list_text({4}) == "4");
    CHECK(cpu_list_text({}).empty());
  }

  TEST_CASE("a thread is placed on the allowed CPUs it is given") {
    const auto allowed = allowed_cpus();
    REQUIRE(allowed.has_value());
    REQUIRE_FALSE(allowed->empty());
    std::optional<Result<std::vector<int>>> placed;
    std::optional<Result<std::vector<int>>> after;
    std::thread([&]() {
      placed = place_this_thread({1023, allowed->front()});
      after = allowed_cpus();
    }).join();
    REQUIRE(placed->has_value());
    CHECK(**placed == std::vector<int>{allowed->front()});
    CHECK(**after == std::vector<int>{allowed->front()});
    // This thread is where it was.
    CHECK(*allowed_cpus() == *allowed);

    std::optional<Result<std::vector<int>>> refused;
    std::thread([&]() { refused = place_this_thread({1023}); }).join();
    if (std::find(allowed->begin(), allowed->end(), 1023) == allowed->end()) {
      REQUIRE_FALSE(refused->has_value());
      CHECK(refused->error().message ==
            "none of CPUs 1023 is allowed for this process (" + cpu_list_text(*allowed) + ")");
    }
  }
}

} // namespace envlock::util
