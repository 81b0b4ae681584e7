#include "importer/envlock_tool.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE("importer") {
  TEST_CASE("registry_arguments: every registry option reaches envlock squashfs") {
    oci::RegistryOptions options;
    options.insecure_registries = {"127.0.0.1:5000"};
    options.timeout = std::chrono::milliseconds(9000);
    options.deadline = std::chrono::milliseconds(120500);
    options.max_attempts = 2;
    CHECK(importer::registry_arguments(options) ==
          std::vector<std::string>{"--insecure-registry=127.0.0.1:5000", "--registry-timeout=9.0",
                                   "--registry-deadline=120.5", "--registry-attempts=2"});
  }
}
