#include "importer/config.hpp"

#include <doctest/doctest.h>

using envlock::importer::parse_config;
using envlock::importer::Policy;

namespace {

std::string config_error_of(const std::string& text) {
  const auto config = parse_config(text, "/etc/envlock/importer.yaml");
  REQUIRE(!config.has_value());
  CHECK(config.error().code == envlock::ExitCode::usage);
  return config.error().message;
}

} // namespace

TEST_SUITE("importer.config") {
  TEST_CASE("every key, relative paths taken from the file's folder") {
    const auto config = parse_config("locks: [locks, /srv/a.lock.json]\n"
                                     "policy: warn\n"
                                     "cache: /var/cache/envlock\n"
                                     "cache_max_bytes: 1000000\n"
                                     "sqsh_dirs: [/local/images]\n"
                                     "public_key: keys/ci.pub\n"
                                     "registry:\n"
                                     "  insecure: [127.0.0.1:5000]\n"
                                     "  ca_file: ca.pem\n"
                                     "  timeout_seconds: 9\n"
                                     "  deadline_seconds: 120\n"
                                     "  attempts: 2\n"
                                     "lock_timeout_seconds: 30\n"
                                     "hold_expiry_seconds: 3600\n",
                                     "/etc/envlock/importer.yaml");
    REQUIRE_MESSAGE(config.has_value(), config.error().message);
    CHECK(config->locks ==
          std::vector<std::filesystem::path>{"/etc/envlock/locks", "/srv/a.lock.json"});
    CHECK(config->policy == Policy::warn);
    CHECK(config->policy_origin == "/etc/envlock/importer.yaml:2:9");
    CHECK(config->cache == "/var/cache/envlock");
    CHECK(config->cache_max_bytes == 1000000);
    CHECK(config->public_key == "/etc/envlock/keys/ci.pub");
    CHECK(config->registry.insecure_registries == std::vector<std::string>{"127.0.0.1:5000"});
    CHECK(config->registry.ca_file == "/etc/envlock/ca.pem");
    CHECK(config->registry.timeout.count() == 9000);
    CHECK(config->registry.deadline.count() == 120000);
    CHECK(config->registry.max_attempts == 2);
    CHECK(config->lock_timeout_seconds == 30);
    CHECK(config->hold_expiry_seconds == 3600);
  }

  TEST_CASE("defaults: policy refuse, no size limit") {
    const auto config = parse_config("locks: [/l]\ncache: /c\n", "/etc/envlock/importer.yaml");
    REQUIRE(config.has_value());
    CHECK(config->policy == Policy::refuse);
    CHECK(config->policy_origin == "/etc/envlock/importer.yaml (default)");
    CHECK(config->cache_max_bytes == 0);
    CHECK(config->sqsh_dirs.empty());
    CHECK(config->lock_timeout_seconds == 600);
    CHECK(config->registry.deadline.count() == 300000);
  }

  TEST_CASE("mistakes are FILE:LINE:COL with the line and a caret") {
    CHECK(config_error_of("locks: [/l]\ncache: /c\npolicy: refuse-all\n") ==
          "/etc/envlock/importer.yaml:3:9: 'policy' must be refuse or warn, got 'refuse-all'\n"
          "policy: refuse-all\n"
          "        ^");
    CHECK(config_error_of("locks: [/l]\ncache: /c\ncache_max_byte: 5\n") ==
          "/etc/envlock/importer.yaml:3:1: unknown key 'cache_max_byte'; did you mean "
          "'cache_max_bytes'?\n"
          "cache_max_byte: 5\n"
          "^");
    CHECK(config_error_of("cache: /c\n")
              .starts_with("/etc/envlock/importer.yaml:1:1: missing required key 'locks'"));
    CHECK(config_error_of("locks: []\ncache: /c\n")
              .starts_with("/etc/envlock/importer.yaml:1:8: 'locks' must name at least one lock "
                           "file or folder"));
    CHECK(config_error_of("locks: [/l]\ncache: /c\ncache_max_bytes: -1\n")
              .starts_with("/etc/envlock/importer.yaml:3:18: 'cache_max_bytes' must be 0 (no "
                           "limit) or more, got -1"));
    CHECK(config_error_of("locks: [/l]\ncache: /c\nregistry: {attempts: 99}\n")
              .starts_with("/etc/envlock/importer.yaml:3:22: 'registry.attempts' must be between 1 "
                           "and 20, got 99"));
    CHECK(config_error_of("locks: [/l]\ncache: /c\nregistry: {deadline_seconds: 0}\n")
              .starts_with("/etc/envlock/importer.yaml:3:30: 'registry.deadline_seconds' must be "
                           "between 1 and 86400, got 0"));
    CHECK(config_error_of("") ==
          "/etc/envlock/importer.yaml: the importer configuration is empty; it "
          "must be a mapping");
  }

  TEST_CASE("the file comes from ENVLOCK_IMPORTER_CONFIG, else /etc/envlock/importer.yaml") {
    ::unsetenv("ENVLOCK_IMPORTER_CONFIG");
    CHECK(envlock::importer::config_path() == "/etc/envlock/importer.yaml");
    ::setenv("ENVLOCK_IMPORTER_CONFIG", "/tmp/x.yaml", 1);
    CHECK(envlock::importer::config_path() == "/tmp/x.yaml");
    ::unsetenv("ENVLOCK_IMPORTER_CONFIG");
  }
}
