#include "oci/session.hpp"

#include <cstdlib>
#include <doctest/doctest.h>

namespace {

using envlock::oci::insecure_registries_from_environment;
using envlock::oci::is_loopback_registry;

TEST_SUITE("oci.insecure") {
  TEST_CASE("loopback registries, by name and address, with and without a port") {
    CHECK(is_loopback_registry("127.0.0.1:5000"));
    CHECK(is_loopback_registry("127.1.2.3"));
    CHECK(is_loopback_registry("localhost:5000"));
    CHECK(is_loopback_registry("[::1]:5000"));
    CHECK(is_loopback_registry("[::1]"));
    CHECK_FALSE(is_loopback_registry("[::10]:5000"));
    CHECK_FALSE(is_loopback_registry("0.0.0.0:5000"));
    CHECK_FALSE(is_loopback_registry("localhost.example.invalid"));
    CHECK_FALSE(is_loopback_registry("128.0.0.1"));
    CHECK_FALSE(is_loopback_registry("registry.invalid:443"));
  }

  TEST_CASE("ENVLOCK_INSECURE_REGISTRIES: commas or spaces between entries, empty ones dropped") {
    ::setenv("ENVLOCK_INSECURE_REGISTRIES", " a.invalid:5000,, b.invalid\tc.invalid ", 1);
    CHECK(insecure_registries_from_environment() ==
          std::vector<std::string>{"a.invalid:5000", "b.invalid", "c.invalid"});
    ::unsetenv("ENVLOCK_INSECURE_REGISTRIES");
    CHECK(insecure_registries_from_environment().empty());
  }
}

} // namespace
