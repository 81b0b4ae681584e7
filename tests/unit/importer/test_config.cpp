#include "importer/config.hpp"
#include "importer/config_choice.hpp"

#include "../testutil.hpp"
#include "trusted_dir.hpp"

#include <doctest/doctest.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace envlock::importer;

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

  TEST_CASE("shared_cache, log and on_corrupt are read; on_corrupt names its values") {
    const auto config = parse_config("locks: [/l]\ncache: /c\nshared_cache: shared\nlog: "
                                     "/var/log/envlock/importer.log\non_corrupt: refuse\n",
                                     "/etc/envlock/importer.yaml");
    REQUIRE(config.has_value());
    CHECK(config->shared_cache == "/etc/envlock/shared");
    CHECK(config->log == "/var/log/envlock/importer.log");
    CHECK(config->on_corrupt == OnCorrupt::refuse);
    CHECK(config_error_of("locks: [/l]\ncache: /c\non_corrupt: ignore\n")
              .starts_with("/etc/envlock/importer.yaml:3:13: 'on_corrupt' must be fallback or "
                           "refuse, got 'ignore'"));
  }

  TEST_CASE("require_signed is a boolean, and needs public_key") {
    auto config = parse_config("locks: [/l]\ncache: /c\npublic_key: ci.pub\nrequire_signed: true\n",
                               "/etc/envlock/importer.yaml");
    REQUIRE_MESSAGE(config.has_value(), config.error().message);
    CHECK(config->require_signed);
    config = parse_config("locks: [/l]\ncache: /c\n", "/etc/envlock/importer.yaml");
    REQUIRE(config.has_value());
    CHECK(!config->require_signed);
    CHECK(config_error_of("locks: [/l]\ncache: /c\nrequire_signed: true\n") ==
          "/etc/envlock/importer.yaml:3:17: 'require_signed' needs 'public_key': the key the "
          "images' provenance must be signed by\n"
          "require_signed: true\n"
          "                ^");
    CHECK(config_error_of("locks: [/l]\ncache: /c\npublic_key: k\nrequire_signed: 'yes'\n")
              .starts_with("/etc/envlock/importer.yaml:4:17: 'require_signed' must be true or "
                           "false, got a string"));
    config = parse_config("locks: [/l]\ncache: /c\nrequire_signed: false\n",
                          "/etc/envlock/importer.yaml");
    REQUIRE_MESSAGE(config.has_value(), config.error().message);
    CHECK(!config->require_signed);
  }

  TEST_CASE("under a Slurm job only the system file is read; outside one the variable chooses") {
    std::map<std::string, std::string> env;
    const EnvironmentLookup lookup = [&env](const std::string& name) -> std::optional<std::string> {
      const auto it = env.find(name);
      return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    ConfigChoice choice = choose_config(lookup);
    CHECK(choice.file == "/etc/envlock/importer.yaml");
    CHECK(choice.why == "the default; ENVLOCK_IMPORTER_CONFIG is unset");
    env["ENVLOCK_IMPORTER_CONFIG"] = "/home/me/warn.yaml";
    choice = choose_config(lookup);
    CHECK(choice.file == "/home/me/warn.yaml");
    CHECK(choice.source == ConfigSource::variable);
    CHECK(choice.why == "chosen by ENVLOCK_IMPORTER_CONFIG");
    env["PYXIS_VERSION"] = "0.24.0";
    choice = choose_config(lookup);
    CHECK(choice.file == "/etc/envlock/importer.yaml");
    CHECK(choice.source == ConfigSource::job);
    CHECK(choice.ignored == "/home/me/warn.yaml");
    CHECK(choice.why == "the system's, read under a Slurm job (PYXIS_VERSION is set); "
                        "ENVLOCK_IMPORTER_CONFIG is ignored there");
    env["SLURM_JOB_ID"] = "12";
    CHECK(*job_marker(lookup) == "SLURM_JOB_ID");
  }

  TEST_CASE("under a job the system file must be root's and writable by no one else") {
    if (::geteuid() != 0) {
      return; // the folder made here is root's only when root makes it
    }
    const envlock::util::TempDir tmp = envlock::test::trusted_temp_dir();
    const auto file = tmp.path() / "importer.yaml";
    envlock::test::write_text(file, "locks: [" + file.string() + "]\ncache: /c\n");
    ConfigChoice choice;
    choice.file = file;
    choice.source = ConfigSource::job;
    choice.why = "the system's";
    REQUIRE(::chmod(file.c_str(), 0664) == 0);
    auto loaded = load_config(choice);
    REQUIRE(!loaded.has_value());
    CHECK(loaded.error().code == envlock::ExitCode::environment);
    CHECK(loaded.error().message == "importer configuration (the system's): " + file.string() +
                                        ": writable by others (mode 0664); it must be owned by "
                                        "root and writable by no one else, with every folder "
                                        "above it");
    REQUIRE(::chmod(file.c_str(), 0644) == 0);
    if (::geteuid() == 0) {
      REQUIRE(::chown(file.c_str(), 1000, 0) == 0);
      loaded = load_config(choice);
      REQUIRE(!loaded.has_value());
      CHECK(loaded.error().message.find(file.string() + ": owned by uid 1000, not root") !=
            std::string::npos);
    }
    choice.source = ConfigSource::variable;
    choice.why = "chosen by ENVLOCK_IMPORTER_CONFIG";
    choice.file = tmp.path() / "none.yaml";
    loaded = load_config(choice);
    REQUIRE(!loaded.has_value());
    CHECK(loaded.error().message == "importer configuration (chosen by ENVLOCK_IMPORTER_CONFIG): " +
                                        choice.file.string() + ": No such file or directory");
  }
}
